import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { SpendCaps } from './caps.js';
import { PriceTable } from './prices.js';

/** Prices (from the configuration) and the spend caps every model call and admission is held to. */
export function billingSubsystem(resources: Resources): Subsystem<{ prices: PriceTable; caps: SpendCaps }> {
  return { name: 'billing', services: { prices: new PriceTable(resources.config), caps: new SpendCaps(resources) } };
}
