// Every agent-work scenario, in the order the dev set lists them.
import type { Project } from './script.js';
import { fernlight } from './project-fernlight.js';
import { gridwatch } from './project-gridwatch.js';
import { hearth } from './project-hearth.js';
import { ledgerline } from './project-ledgerline.js';
import { loomctl } from './project-loomctl.js';
import { quarry } from './project-quarry.js';
import { tidepool } from './project-tidepool.js';

export const PROJECTS: readonly Project[] = [tidepool, quarry, fernlight, hearth, gridwatch, ledgerline, loomctl];
