import { describe, expect, it } from 'vitest';
import type { Benchmark } from './benchmark';
import { composeDocument, type RunFacts } from './performance-doc';

const run: RunFacts = {
  machine: { cores: 2, cpuModel: 'Test CPU', memoryGiB: 4, os: 'Linux', node: 'v20' },
  command: 'npm run bench -- --only b',
  date: new Date('2026-11-29T00:00:00Z'),
};
const benchmark = (name: string) => ({ name, title: name.toUpperCase() }) as Benchmark;
const registry = [benchmark('a'), benchmark('b'), benchmark('c')];
const section = (name: string, text: string) => `<!-- bench:${name} -->\n\n${text}\n\n<!-- /bench:${name} -->`;

describe('composeDocument', () => {
  it('replaces the fresh sections and keeps the hand-written ones between them', () => {
    const previous = [
      '# Performance',
      'old header',
      section('a', 'a old'),
      '## Hand-written after a\n\nkept text',
      section('b', 'b old'),
      '## Hand-written at the end\n\nalso kept',
    ].join('\n\n');
    const document = composeDocument(previous, registry, new Map([['b', section('b', 'b new')]]), run);
    expect(document).not.toContain('old header');
    expect(document).toContain('| Command | `npm run bench -- --only b` |');
    expect(document).not.toContain('b old');
    const order = ['a old', '## Hand-written after a', 'kept text', 'b new', '## Hand-written at the end', 'also kept'];
    const at = order.map((text) => document.indexOf(text));
    expect(at.every((position) => position >= 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
  });

  it('puts a section new to the document after the previous benchmark of the registry', () => {
    const previous = ['# Performance', section('a', 'a old'), '## Hand-written\n\nkept', section('c', 'c old')].join(
      '\n\n',
    );
    const document = composeDocument(previous, registry, new Map([['b', section('b', 'b new')]]), run);
    const at = ['a old', 'b new', '## Hand-written', 'c old'].map((text) => document.indexOf(text));
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    expect(at[0]).toBeGreaterThanOrEqual(0);
  });

  it('writes the sections in registry order when there is no document yet', () => {
    const fresh = new Map([
      ['c', section('c', 'c new')],
      ['a', section('a', 'a new')],
    ]);
    const document = composeDocument(null, registry, fresh, run);
    expect(document.indexOf('a new')).toBeLessThan(document.indexOf('c new'));
    expect(document.startsWith('# Performance')).toBe(true);
  });
});
