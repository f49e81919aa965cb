import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { Provider } from 'urql';
import { studioClient } from './client';
import { navigate, parse, paths, useLocation } from './router';
import { BroadcastScreen } from './screens/broadcast';
import { BroadcastsScreen } from './screens/broadcasts';
import { DeliveriesScreen } from './screens/deliveries';
import { KeysScreen } from './screens/keys';
import { Shell } from './screens/shell';
import { SignInScreen } from './screens/sign-in';
import { WebhooksScreen } from './screens/webhooks';
import { getSession, onSessionChange } from './session';
import { Toasts } from './ui/toast';
import { Empty } from './ui/bits';

export function App() {
  const session = useSyncExternalStore(onSessionChange, getSession);
  const { pathname } = useLocation();
  const route = parse(pathname);
  // one client per session: signing out drops the cache and closes the socket
  const studio = useMemo(() => studioClient(session), [session?.token]);
  useEffect(() => () => studio.close(), [studio]);

  useEffect(() => {
    if (!session && route.name !== 'sign-in') navigate(`${paths.signIn()}?next=${encodeURIComponent(pathname)}`, true);
    // back to where the sign-in interrupted, within the studio only
    const next = new URLSearchParams(location.search).get('next');
    if (session && route.name === 'sign-in') navigate(next && /^\/studio\/(?!\/)/.test(next) ? next : '/studio/', true);
  }, [session, route.name]);

  let screen;
  if (!session || route.name === 'sign-in') screen = <SignInScreen />;
  else if (route.name === 'not-found') screen = <Shell slug={null}><Empty title="There is no such page in the studio." /></Shell>;
  else if (route.name === 'home') screen = <Shell slug={null} />;
  else {
    const slug = route.slug;
    screen = (
      <Shell slug={slug}>
        {route.name === 'broadcasts' && <BroadcastsScreen slug={slug} />}
        {/* one screen per broadcast: a stream key shown for one is never left on another's */}
        {route.name === 'broadcast' && <BroadcastScreen key={route.id} slug={slug} id={route.id} />}
        {route.name === 'keys' && <KeysScreen slug={slug} />}
        {route.name === 'webhooks' && <WebhooksScreen slug={slug} />}
        {route.name === 'deliveries' && <DeliveriesScreen slug={slug} id={route.id} />}
      </Shell>
    );
  }
  return (
    <Provider value={studio.client}>
      <Toasts>{screen}</Toasts>
    </Provider>
  );
}
