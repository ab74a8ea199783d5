import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * The release this code replaces in a rolling upgrade: the commit last shipped (CI passed). Set it
 * to the shipped commit at each release (docs/operations.md, "Upgrades without downtime").
 */
export const PREVIOUS_RELEASE = '5edcdd782255ebbee4c14f011345682a9c2b09fd';

/** Whether this clone holds the previous release (a shallow clone does not). */
export function hasPreviousRelease(): boolean {
  return spawnSync('git', ['-C', ROOT, 'cat-file', '-e', `${PREVIOUS_RELEASE}^{commit}`]).status === 0;
}

/** The names of the previous release's migrations. */
export function previousMigrations(): string[] {
  const listing = execFileSync(
    'git',
    ['-C', ROOT, 'ls-tree', '--name-only', PREVIOUS_RELEASE, 'apps/server/src/db/migrations/'],
    { encoding: 'utf8' },
  );
  return listing
    .split('\n')
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.basename(file, '.ts'));
}

/**
 * The previous release's source in a directory of its own, on this checkout's installed
 * dependencies (a release's dependencies only grow between two neighbouring releases) with its
 * own workspace packages; `startServerProcess(env, { root: dir })` runs it. Remove it afterwards.
 */
export function checkOutPreviousRelease(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-previous-'));
  const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', PREVIOUS_RELEASE], {
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    // The workspace links are relative (`../../packages/api`): copied as they are, they name the release's own packages.
    if (entry === '@fieldlink') {
      fs.mkdirSync(path.join(modules, entry));
      for (const name of fs.readdirSync(path.join(ROOT, 'node_modules', entry))) {
        const link = fs.readlinkSync(path.join(ROOT, 'node_modules', entry, name));
        fs.symlinkSync(link, path.join(modules, entry, name));
      }
    } else if (entry !== '.bin') {
      fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
    }
  }
  return dir;
}
