import { useEffect, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { BILLING_NAMES, PLAN_NAMES, ROLE_NAMES, useChannel } from '../channel';
import { graphql } from '../gql';
import { useLiveBroadcasts } from '../live';
import { Link, navigate, paths, useLocation } from '../router';
import { getSession, setSession } from '../session';
import { Empty } from '../ui/bits';

const MyChannels = graphql(`
  query MyChannels {
    viewer { id email channels { id slug name role } }
  }
`);

const SignOut = graphql(`
  mutation SignOut { logout }
`);

/** The frame of every signed-in screen: the sidebar (channel switcher, sections, sign out) and the page. */
export function Shell({ slug, children }: { slug: string | null; children?: ReactNode }) {
  const [mine] = useQuery({ query: MyChannels });
  const [, logout] = useMutation(SignOut);
  const { pathname } = useLocation();
  const channels = mine.data?.viewer.channels ?? [];

  useEffect(() => {
    if (!slug && pathname.replace(/\/$/, '') === '/studio' && channels.length > 0) navigate(paths.broadcasts(channels[0].slug), true);
  }, [slug, pathname, channels.length]);

  const signOut = async () => {
    await logout({});
    setSession(null);
  };
  const switchTo = (next: string) => {
    // the same section on the other channel
    const section = pathname.match(/^\/studio\/channels\/[^/]+\/(api-keys|webhooks)/)?.[1];
    navigate(section === 'api-keys' ? paths.keys(next) : section === 'webhooks' ? paths.webhooks(next) : paths.broadcasts(next));
  };

  return (
    <div className="shell">
      <aside className="sidebar" aria-label="Studio">
        <div className="brand">Studio</div>
        {channels.length > 0 && (
          <div className="switcher">
            <label htmlFor="channel-switcher">Channel</label>
            <select id="channel-switcher" value={slug ?? ''} onChange={(e) => switchTo(e.target.value)}>
              {!slug && <option value="">Choose a channel</option>}
              {channels.map((c) => (
                <option key={c.id} value={c.slug}>{c.name} ({ROLE_NAMES[c.role]})</option>
              ))}
            </select>
          </div>
        )}
        {slug && (
          <nav aria-label="Sections">
            <ul className="nav">
              <li><NavLink href={paths.broadcasts(slug)}>Broadcasts</NavLink></li>
              <li><NavLink href={paths.keys(slug)}>API keys</NavLink></li>
              <li><NavLink href={paths.webhooks(slug)}>Webhooks</NavLink></li>
            </ul>
          </nav>
        )}
        <div className="sidebar-foot">
          <div className="who" title={getSession()?.email}>{mine.data?.viewer.email ?? getSession()?.email}</div>
          <button type="button" className="button small" onClick={signOut}>Sign out</button>
        </div>
      </aside>
      <main className="page" id="main">
        {slug && <ChannelBar slug={slug} />}
        {children ?? (mine.data && channels.length === 0 ? <Empty title="You hold no role on any channel yet.">Ask a channel's owner to add you.</Empty> : null)}
      </main>
    </div>
  );
}

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const { pathname } = useLocation();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return <Link href={href} className={current ? 'nav-link current' : 'nav-link'} aria-current={current ? 'page' : undefined}>{children}</Link>;
}

function ChannelBar({ slug }: { slug: string }) {
  const { channel, error } = useChannel(slug);
  // while a channel is open, its broadcasts' changes update its lists and live slots
  useLiveBroadcasts(slug);
  if (error) return <Empty title="This channel is not one of yours, or it does not exist." />;
  if (!channel) return null;
  return (
    <div className="channel-bar">
      <div>
        <div className="channel-name">{channel.name}</div>
        <div className="muted small">Your role: {ROLE_NAMES[channel.role]}{channel.approved ? '' : ' · not yet approved by the operator'}</div>
      </div>
      <dl className="facts">
        <div><dt>Plan</dt><dd>{PLAN_NAMES[channel.plan]}</dd></div>
        <div><dt>Billing</dt><dd>{BILLING_NAMES[channel.billingState]}</dd></div>
        <div><dt>Live slots</dt><dd data-testid="live-slots">{channel.liveSlots.used} of {channel.liveSlots.total} in use</dd></div>
      </dl>
    </div>
  );
}
