// `npm run backup -- <file>` and `npm run restore -- <file>`: the database named by DATABASE_URL (as
// the server reads it; default ./data/fieldlink.db) to or from one file. docs/operations.md, "Backups".
import { loadConfig } from '../config';
import { backupDatabase, restoreDatabase, type BackupResult } from './backup';

const [command, file] = process.argv.slice(2);

function describe(result: BackupResult): string {
  const megabytes = (result.bytes / 1024 / 1024).toFixed(1);
  return `${result.kind}, ${megabytes} MB, ${(result.milliseconds / 1000).toFixed(1)} s`;
}

if ((command !== 'backup' && command !== 'restore') || !file) {
  console.error('usage: npm run backup -- <file>  |  npm run restore -- <file>');
  process.exit(2);
}
try {
  const { databaseUrl } = loadConfig(process.env);
  if (command === 'backup') {
    const result = await backupDatabase(databaseUrl, file);
    console.log(`Backed up to ${result.file} (${describe(result)})`);
  } else {
    const result = await restoreDatabase(databaseUrl, file);
    console.log(`Restored ${result.file} (${describe(result)}); start the server on it as usual`);
  }
} catch (error) {
  console.error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
