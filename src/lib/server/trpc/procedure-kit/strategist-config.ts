/** The strategist's part of the service configuration, for the procedures that run it. */
import type { ServiceConfig } from '../../config';
import type { StrategistConfig } from '../../strategist';

export function strategistConfigOf(config: ServiceConfig): StrategistConfig {
  return {
    strategistProvider: config.strategistProvider,
    partner: { apiUrl: config.partner.apiUrl, apiKey: config.partner.apiKey, timeoutMs: config.partner.timeoutMs },
  };
}
