/** The TV API's channel shapes (zod, the source of the TV OpenAPI document). */
import { z } from 'zod';
import { BroadcastWithoutStreamKey, PublicBroadcast } from '../../domain/channels/broadcast.schemas';
import { BILLING_STATES, CHANNEL_SCOPES, LIVE_SLOTS, PLANS } from '../../domain/channels/channel.entities';

/** Live slots per plan in words (`free` 1, ...), for the plan and go-live descriptions. */
export const PLAN_SLOTS_TEXT = PLANS.map((p) => `\`${p}\` ${LIVE_SLOTS[p]}`).join(', ');

const slug = (description: string) => z.string().meta({ description, example: 'fight-night-tv' });
const channelName = () => z.string().meta({ description: 'Channel name.', example: 'Fight Night TV' });
const count = (description: string) => z.int().min(0).meta({ description });

export const PublicChannel = z
  .strictObject({
    slug: slug('Channel slug, used in `/channels/{slug}`.'),
    name: channelName(),
    live_count: count('Listed broadcasts live now.'),
    upcoming_count: count('Listed broadcasts scheduled.'),
  })
  .meta({ description: 'An approved channel.' });

export const ChannelDetail = z
  .strictObject({
    slug: slug('Channel slug.'),
    name: channelName(),
    live: z.array(PublicBroadcast).meta({ description: 'Its listed broadcasts live now.' }),
    upcoming: z.array(PublicBroadcast).meta({ description: 'Its listed scheduled broadcasts.' }),
    replays: z.array(PublicBroadcast).meta({ description: 'Its listed replays.' }),
  })
  .meta({ description: 'One approved channel with its live, upcoming and replayed broadcasts (unlisted ones are never listed).' });

export const Me = z
  .strictObject({
    channel: z
      .strictObject({
        slug: z.string().meta({ description: 'Channel slug.' }),
        name: z.string().meta({ description: 'Channel name.' }),
        plan: z.enum(PLANS).meta({ description: `Plan; live slots: ${PLAN_SLOTS_TEXT}. \`ingest\` needs \`pro\` or \`broadcaster\`.` }),
        billing_state: z.enum(BILLING_STATES).meta({ description: 'Billing state; going live needs `active` or `trialing`.' }),
        approved: z.boolean().meta({ description: 'Whether the channel is approved (only approved channels are listed publicly).' }),
        live_slots: z
          .strictObject({ used: count('Broadcasts of the channel live now.'), total: count('Live slots of the plan.') })
          .meta({ description: 'Live slots in use and in total.' }),
      })
      .meta({ description: "The key's channel." }),
    key: z
      .strictObject({
        name: z.string().meta({ description: 'Name of the key.' }),
        prefix: z.string().meta({ description: 'The first characters of the key, for display.', example: 'ck_Ab3d' }),
        scopes: z.array(z.enum(CHANNEL_SCOPES)).meta({ description: 'Scopes of the key.', uniqueItems: true }),
      })
      .meta({ description: 'The channel API key used for the request.' }),
    broadcasts: z
      .array(BroadcastWithoutStreamKey)
      .max(100)
      .meta({ description: "The channel's latest 100 broadcasts, newest `scheduled_at` first, without stream keys." }),
  })
  .meta({ description: "The key's channel, its billing state and its broadcasts." });
