// The default search settings (config search.*), as the pipeline's stages read them.
import { defaultConfig } from '../../../src/core/config.js';
import type { SearchRanking } from '../../../src/search/hybrid.js';

export const DEFAULT_RANKING: SearchRanking = defaultConfig().search;
