/**
 * The rules of a broadcast's life as the TV API's prose states them (the editing and go-live
 * paragraphs of the operations and of the document's introduction). The editing rule is worded
 * from the domain's table of the fields each state may change, so the two cannot drift.
 */
import { BROADCAST_STATES, type BroadcastState } from '../../domain/channels/broadcast.entities';
import { BROADCAST_FIELD_ORDER, BROADCAST_FIELDS, codeWords, EDITABLE_BROADCAST_FIELDS } from '../../domain/channels/broadcast.fields';
import { PLAN_SLOTS_TEXT } from '../schemas/channel.schemas';

/** `a`, `b` and `c` (or `or`). */
const list = (values: readonly string[], and = 'and') =>
  values.length < 2 ? values.map(codeWords).join('') : `${values.slice(0, -1).map(codeWords).join(', ')} ${and} ${codeWords(values[values.length - 1])}`;

/** The states in life order, those that allow the same fields together: while `live`, …; the same once `ended` or `replay`. */
function editing(): string {
  const groups: BroadcastState[][] = [];
  for (const state of BROADCAST_STATES) {
    const last = groups[groups.length - 1];
    if (last && EDITABLE_BROADCAST_FIELDS[last[0]].join() === EDITABLE_BROADCAST_FIELDS[state].join()) last.push(state);
    else groups.push([state]);
  }
  return groups
    .map(([first, ...rest]) => {
      const allowed = EDITABLE_BROADCAST_FIELDS[first];
      const refused = BROADCAST_FIELD_ORDER.filter((f) => !allowed.includes(f)).map((f) => BROADCAST_FIELDS[f]);
      const what = refused.length === 0 ? 'any creation field' : `any but ${list(refused)}`;
      return `while ${codeWords(first)}, ${what}${rest.length ? `; the same once ${list(rest, 'or')}` : ''}`;
    })
    .join('; ');
}

export const PATCH_RULES = `Which fields may change depends on the state: ${editing()}. A forbidden change is a 409 \`invalid_state\`.`;

export const GO_LIVE_RULES =
  'Going live needs: state `scheduled` (else 409 `invalid_state`); billing state `active` or `trialing` ' +
  '(else 402 `billing_inactive`); a plan that allows the source: `ingest` needs `pro` or `broadcaster` ' +
  `(else 403 \`plan_forbids_source\`); a free live slot: plans have ${PLAN_SLOTS_TEXT} ` +
  '(else 409 `no_live_slot`). Slot checks hold under concurrent go-lives.';
