/**
 * What makes a delivery `d` due for an attempt, the one home of the rule for the claim
 * (delivery.worker.ts) and the rate's check for room (delivery-rate.ts): pending and its time
 * has come, or being sent by a worker whose lease ran out (it died or hung: the attempt is sent
 * again, same delivery id and attempt number).
 */
export const PENDING_DUE = `d.status = 'pending' and d.next_attempt_at <= now()`;
export const LEASE_RAN_OUT = `d.status = 'sending' and d.lease_until < now()`;
