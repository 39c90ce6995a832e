// Run by `npm run build` after tsc: compiles the gazetteer into dist (see gazetteer-file.ts).
import { buildFromPackages, gazetteerVersion } from './gazetteer.js';
import { COMPILED_GAZETTEER, writeCompiledGazetteer } from './gazetteer-file.js';

const byName = buildFromPackages();
writeCompiledGazetteer(byName, gazetteerVersion());
console.log(`gazetteer: ${byName.size} place names → ${COMPILED_GAZETTEER}`);
