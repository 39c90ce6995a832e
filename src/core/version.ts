/** The release, as package.json says; a running daemon answers only CLIs of the same release. */
export const CAIRN_VERSION = '0.1.0';
