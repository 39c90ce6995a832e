// The homes the confidence bench asks in: each set's conversations ingested once with the default
// configuration, through the eval harness's own home keeping (.cairn-eval/<set>/homes/), so a home
// an eval run built is reused here and the reverse.
import { join, resolve } from 'node:path';
import { namespaceOf, type DevConversation, type DevSet } from '../eval/devset.js';
import { homeComponents, prepareHome, type EvalHome } from '../eval/homes.js';
import { ingestMissing, type Log } from '../eval/run.js';
import { DEFAULT_VARIANT, pickVariants, resolveVariant, type ResolvedVariant } from '../eval/variants.js';

export const DEFAULT = (): ResolvedVariant => resolveVariant(pickVariants([DEFAULT_VARIANT])[0]!);

/** The home holding `conversations` of `set` (ingesting the ones it lacks). */
export async function homeFor(set: DevSet, conversations: readonly DevConversation[], log: Log): Promise<EvalHome> {
  const variant = DEFAULT();
  const workDir = resolve('.cairn-eval', set.name);
  const home = prepareHome(workDir, homeComponents(set.sha256, variant), conversations.map(namespaceOf), false);
  if (home.missing.length > 0) {
    log(`${set.name}: ingesting ${home.missing.length} conversations into ${home.path}`);
    const transcripts = set.writeTranscripts(join(workDir, 'transcripts', set.sha256.slice(0, 16)));
    await ingestMissing(home, variant, conversations, transcripts, log);
  }
  return home;
}
