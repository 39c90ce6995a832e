// The decay tiers (DESIGN.md "Recall"): how old a record is, in the three steps that search ranking
// and the PARA archive rule both use, so "cold" means the same thing everywhere.
import { DAY_MS } from './time.js';

export type DecayTier = 'hot' | 'warm' | 'cold';

/** Hot: at most `hotDays` old; warm: at most `warmDays`; cold: older. */
export function decayTier(timeIso: string, now: number, opts: { hotDays: number; warmDays: number }): DecayTier {
  const age = (now - Date.parse(timeIso)) / DAY_MS;
  if (age <= opts.hotDays) return 'hot';
  if (age <= opts.warmDays) return 'warm';
  return 'cold';
}
