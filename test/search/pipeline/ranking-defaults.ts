// The default search settings (config search.*), as the pipeline's stages read them.
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import type { SearchRanking } from '../../../src/search/hybrid.js';

export const DEFAULT_RANKING: SearchRanking = DEFAULT_CONFIG.search;
