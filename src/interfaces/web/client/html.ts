// htm bound to Preact: tagged templates instead of a JSX build step. Text in ${…} is escaped by
// Preact; nothing in the client sets innerHTML.
export { html } from 'htm/preact';
