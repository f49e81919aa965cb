import type { BroadcastState, BroadcastSource, Visibility, Discipline } from './gql/graphql';
import { Badge } from './ui/bits';

export const STATE_NAMES: Record<BroadcastState, string> = { SCHEDULED: 'Upcoming', LIVE: 'Live', ENDED: 'Ended', REPLAY: 'Replay' };
export const SOURCE_NAMES: Record<BroadcastSource, string> = { YOUTUBE: 'YouTube', VIMEO: 'Vimeo', HLS: 'HLS playlist', MP4: 'MP4 file', INGEST: 'Ingest (RTMP/SRT push)' };
export const VISIBILITY_NAMES: Record<Visibility, string> = { PUBLIC: 'Public', UNLISTED: 'Unlisted', FOLLOWERS: 'Followers only', PPV: 'Pay-per-view' };
export const DISCIPLINE_NAMES: Record<Discipline, string> = { KICKBOXING: 'Kickboxing', MMA: 'MMA', BOXING: 'Boxing', MUAY_THAI: 'Muay Thai' };

const TONE: Record<BroadcastState, 'red' | 'blue' | 'grey' | 'green'> = { LIVE: 'red', SCHEDULED: 'blue', ENDED: 'grey', REPLAY: 'green' };

export function StateBadge({ state }: { state: BroadcastState }) {
  return <Badge tone={TONE[state]}>{STATE_NAMES[state]}</Badge>;
}
