/**
 * The `_meta` key under which `tools/list` names the toolset hash (prefix `svc/`, the spec's
 * `_meta` key form). A module of its own so the operation docs can name it without loading
 * the toolset, which reads the docs.
 */
export const TOOLSET_HASH_META_KEY = 'svc/toolsetHash';
