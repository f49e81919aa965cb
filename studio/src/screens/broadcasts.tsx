import { useState } from 'react';
import { useQuery } from 'urql';
import { SOURCE_NAMES, StateBadge, VISIBILITY_NAMES } from '../broadcast-bits';
import { useChannel } from '../channel';
import { explainAll } from '../errors';
import { graphql } from '../gql';
import type { BroadcastState } from '../gql/graphql';
import { Link, navigate, paths, useLocation } from '../router';
import { Empty, ErrorNote, Time } from '../ui/bits';
import { BroadcastForm } from './broadcast-form';

export const BroadcastList = graphql(`
  query BroadcastList($slug: String!, $state: BroadcastState, $first: Int, $after: String) {
    channel(slug: $slug) {
      id
      broadcasts(state: $state, first: $first, after: $after) {
        edges { cursor node { id title state source scheduledAt startedAt endedAt visibility } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

const TABS: { label: string; state: BroadcastState | null; empty: string }[] = [
  { label: 'All', state: null, empty: 'This channel has no broadcasts yet.' },
  { label: 'Live', state: 'LIVE', empty: 'Nothing is live right now.' },
  { label: 'Upcoming', state: 'SCHEDULED', empty: 'No broadcast is scheduled.' },
  { label: 'Ended', state: 'ENDED', empty: 'No broadcast is waiting for its recording.' },
  { label: 'Replays', state: 'REPLAY', empty: 'No replay yet.' },
];

export function BroadcastsScreen({ slug }: { slug: string }) {
  const { search } = useLocation();
  const tab = TABS.find((t) => t.state === search.get('state')) ?? TABS[0];
  const [after, setAfter] = useState<string[]>([]);
  const { can } = useChannel(slug);
  const [creating, setCreating] = useState(false);
  const [result] = useQuery({ query: BroadcastList, variables: { slug, state: tab.state, first: 25, after: after.at(-1) ?? null } });
  const page = result.data?.channel.broadcasts;

  const select = (state: BroadcastState | null) => {
    setAfter([]);
    navigate(state ? `${paths.broadcasts(slug)}?state=${state}` : paths.broadcasts(slug));
  };

  return (
    <section aria-labelledby="broadcasts-title">
      <header className="page-header">
        <h1 id="broadcasts-title">Broadcasts</h1>
        {can('BROADCASTS') && <button type="button" className="button primary" onClick={() => setCreating(true)}>New broadcast</button>}
      </header>
      <div className="tabs" role="tablist" aria-label="Broadcasts by state">
        {TABS.map((t) => (
          <button key={t.label} type="button" role="tab" aria-selected={t === tab} className={t === tab ? 'tab current' : 'tab'} onClick={() => select(t.state)}>{t.label}</button>
        ))}
      </div>
      <ErrorNote text={explainAll(result.error)} />
      {page && page.edges.length === 0 && <Empty title={tab.empty}>{can('BROADCASTS') ? 'Create one with “New broadcast”.' : null}</Empty>}
      {page && page.edges.length > 0 && (
        <table className="table">
          <thead>
            <tr><th scope="col">Title</th><th scope="col">State</th><th scope="col">Source</th><th scope="col">Scheduled</th><th scope="col">Visibility</th></tr>
          </thead>
          <tbody>
            {page.edges.map(({ node: b }) => (
              <tr key={b.id}>
                <td><Link href={paths.broadcast(slug, b.id)}>{b.title}</Link></td>
                <td><StateBadge state={b.state} /></td>
                <td>{SOURCE_NAMES[b.source]}</td>
                <td><Time value={b.scheduledAt} /></td>
                <td>{VISIBILITY_NAMES[b.visibility]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="pager">
        {after.length > 0 && <button type="button" className="button" onClick={() => setAfter(after.slice(0, -1))}>Previous</button>}
        {page?.pageInfo.hasNextPage && page.pageInfo.endCursor && <button type="button" className="button" onClick={() => setAfter([...after, page.pageInfo.endCursor!])}>Next</button>}
      </div>
      <BroadcastForm slug={slug} open={creating} onClose={() => setCreating(false)} />
    </section>
  );
}
