import { Lifecycle } from '../lifecycle.js';
import type { DeliveryStatus } from '../store/webhooks-store.js';

/**
 * A webhook delivery's status. Each attempt ends a `pending` delivery as succeeded or failed, or leaves it pending
 * with the next attempt scheduled (the move records that attempt); a manual redelivery gives a finished delivery one
 * more attempt (deliveries-service.ts).
 */
export const deliveryLifecycle = new Lifecycle<DeliveryStatus>('webhook delivery', {
  pending: ['pending', 'succeeded', 'failed'],
  succeeded: ['pending'],
  failed: ['pending'],
});
