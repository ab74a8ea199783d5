/**
 * PostgreSQL cannot store U+0000 in text: a NUL in anything that reaches a text column fails the whole
 * statement (and, for device frames written in batches, every frame beside it). Input holding one is
 * refused where it arrives: requests in the input guard, device frames here.
 */

/** The path (`/channels/0/name`) of the first string or key under `root` that holds a NUL, or null. */
export function nulTextPath(root: unknown): string | null {
  // Walked without recursion: a device's free-form status can nest as deep as JSON allows.
  const stack: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || '/';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return `${path}/${key.replaceAll('\u0000', '\\u0000')}`;
      stack.push({ value: child, path: `${path}/${key}` });
    }
  }
  return null;
}
