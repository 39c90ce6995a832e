// The entity part of knowledge: offline extraction, alias keys and slugs, resolution to known entities.
export { extractEntities, ENTITY_EXTRACTOR_VERSION, MAX_ENTITY_TEXT, MAX_MENTIONS, type ExtractOptions } from './extract.js';
export { aliasKey, slugify } from './aliases.js';
export {
  firstNameKeys, mentionKeys, resolveMentions,
  type KnownByFirstName, type KnownByKey, type KnownEntity, type NewAlias, type Resolution,
} from './resolve.js';
