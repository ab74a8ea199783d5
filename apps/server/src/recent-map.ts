/**
 * Puts `value` at `key` as the most recently used entry of `map` (a Map keeps insertion order), then
 * drops the least recently used entries beyond `maxEntries`: the built answers the server keeps per
 * scope (device table, account tree).
 */
export function rememberRecent<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= maxEntries) break;
    map.delete(oldest);
  }
}
