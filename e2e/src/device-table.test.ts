import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { compareVersions } from '@fieldlink/domain/macro';
import { apiToken, callApi, launchBrowser, signInAs, startServer, type RunningServer } from './harness';
import { until } from '@fieldlink/server/testing';

/**
 * The device table (/accounts/list) in Chromium against the real product and its demo fleet, plus
 * two devices provisioned here that report known firmware, an alarm and a name that looks like a
 * spreadsheet formula, then go offline.
 */
describe('device table: filters, sorting, columns and CSV', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Every device the supplier's admin sees: the demo fleet and the two provisioned here. */
  let total: number;

  const FORMULA_NAME = '=HYPERLINK("http://evil.test","Click")';
  const OLD_FIRMWARE = 'Old firmware unit';

  const api = (method: string, path: string, token: string | null, body?: unknown) =>
    callApi(server.baseUrl, method, path, token, body);

  /** Provisions a device in Acme's New Devices group, reports its firmware and alarms, and takes it offline. */
  async function reportingDevice(token: string, name: string, fw: string, alarmBits: number) {
    const { json } = await api('POST', '/device', token, { name });
    const { credentials } = json as { credentials: { thingName: string; password: string } };
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
      clientId: credentials.thingName,
      username: credentials.thingName,
      password: credentials.password,
      reconnectPeriod: 0,
    });
    const topic = `dev/${credentials.thingName}/up`;
    const frames = [
      { v: 4, type: 'config', subtype: 'device', fw, model: 'Bench rig' },
      { v: 4, type: 'status', t: Date.now(), status: { sp: alarmBits } },
      { v: 4, type: 'conn', t: Date.now(), connected: false },
    ];
    for (const frame of frames) await client.publishAsync(topic, JSON.stringify(frame), { qos: 1 });
    await client.endAsync();
  }

  /** The rows of a CSV document (RFC 4180), without the byte-order mark. */
  const parseCsv = (text: string): string[][] => {
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = '';
    let quoted = false;
    const body = text.replace(/^\uFEFF/, '');
    for (let i = 0; i < body.length; i += 1) {
      const char = body[i]!;
      if (quoted) {
        if (char === '"' && body[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else if (char === '"') quoted = false;
        else cell += char;
      } else if (char === '"') quoted = true;
      else if (char === ',') {
        row.push(cell);
        cell = '';
      } else if (char === '\r' && body[i + 1] === '\n') {
        row.push(cell);
        rows.push(row);
        [row, cell] = [[], ''];
        i += 1;
      } else cell += char;
    }
    return rows;
  };
  const count = () => page.getByTestId('device-count');
  const expectCount = async (text: string) => expect.poll(() => count().textContent(), { timeout: 15_000 }).toBe(text);
  /** Names in the rows drawn, in shown order. */
  const shownNames = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.dt-row'))
        .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
        .map((row) => row.querySelector('.dt-cell--name')?.textContent ?? ''),
    );
  const openTable = async () => {
    await page.goto(`${server.baseUrl}/accounts/list`);
    await page.getByTestId('device-table').waitFor({ timeout: 30_000 });
  };
  /** Starts over: no filters, no column choice, sorted by name. */
  const resetTable = async () => {
    await page.evaluate(() => {
      for (const key of ['deviceFilter', 'deviceTableColumns', 'deviceTableSort']) localStorage.removeItem(key);
    });
    await openTable();
    await expectCount(`${total} devices`);
  };
  const openFilters = async () => {
    const toggle = page.getByRole('button', { name: /^Filters/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  };
  /** Adds a filter of a type through the editor and answers its row. */
  const addFilter = async (type: string) => {
    await openFilters();
    await page.getByRole('button', { name: 'Add filter' }).click();
    const row = page.getByTestId('filter-row').last();
    await row.getByLabel('Filter type').selectOption(type);
    return row;
  };
  /** Clicks a column's header and waits until the rows are in the new order. */
  const sortBy = async (label: string) => {
    const header = page.getByRole('columnheader', { name: label });
    const before = await header.getAttribute('aria-sort');
    await header.getByRole('button').click();
    await expect.poll(() => header.getAttribute('aria-sort')).not.toBe(before);
    await page.locator('[data-testid="device-table"][aria-busy="false"]').waitFor();
  };
  const chooseColumn = async (label: string) => {
    await page.getByRole('button', { name: /^Columns/ }).click();
    await page.getByRole('dialog', { name: 'Columns' }).getByLabel(label, { exact: true }).check();
    await page.getByRole('button', { name: 'Done' }).click();
  };
  const exportCsv = async (): Promise<string> => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    return readFile((await download.path())!, 'utf8');
  };

  beforeAll(async () => {
    server = await startServer();
    const ops = await apiToken(server.baseUrl, 'ops@fieldlink.test');
    await reportingDevice(ops, OLD_FIRMWARE, '4.9.3', 0b1000);
    await reportingDevice(ops, FORMULA_NAME, '4.100.2', 0);
    const admin = await apiToken(server.baseUrl, 'admin@fieldlink.test');
    // Wait until the whole fleet has reported its firmware (the server keeps a built table 10 s).
    await until(
      async () => {
        const table = (await api('GET', '/devices/table', admin)).json as {
          count: number;
          text: { fw: { values?: (string | null)[]; codes?: number[] } };
        };
        const fw = table.text.fw;
        const missing = fw.values
          ? fw.values.filter((value) => value === null).length
          : fw.codes!.filter((code) => code < 0).length;
        total = table.count;
        return missing === 0 && table.count > 0;
      },
      60_000,
      // Each check reads the whole table: once a second is enough.
      { intervalMs: 1_000, what: 'Every device reporting its firmware' },
    );
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await context.newPage();
    await signInAs(page, server.baseUrl, 'admin@fieldlink.test');
    await page.waitForURL(/\/dash/, { timeout: 30_000 });
  }, 150_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('lists every device, sorted by name, with only the rows in view in the page', async () => {
    await resetTable();
    expect(total).toBeGreaterThanOrEqual(27);
    const names = await shownNames();
    expect(names.slice(0, 3)).toEqual(['=HYPERLINK("http://evil.test","Click")', 'Boiler 1', 'Boiler 2']);
    // 800 px of window leaves room for about a dozen 40 px rows: the rest are not in the DOM.
    expect(names.length).toBeLessThan(total);
    // A device's name renders as text, never as markup or a link target of its own.
    await expect(page.getByRole('link', { name: FORMULA_NAME }).getAttribute('href')).resolves.toMatch(/^\/dash\//);
  });

  it('sorts by firmware as versions (4.9.3 < 4.10.x < 4.100.2), both ways', async () => {
    await resetTable();
    await sortBy('Firmware');
    await expect
      .poll(() => page.getByRole('columnheader', { name: 'Firmware' }).getAttribute('aria-sort'))
      .toBe('ascending');
    expect((await shownNames())[0]).toBe(OLD_FIRMWARE);
    const firmware = parseCsv(await exportCsv())
      .slice(1)
      .map((row) => row[5]!);
    expect(firmware).toHaveLength(total);
    expect(firmware[0]).toBe('4.9.3');
    expect(firmware.at(-1)).toBe('4.100.2');
    for (let i = 1; i < firmware.length; i += 1)
      expect(compareVersions(firmware[i - 1]!, firmware[i]!)).toBeLessThanOrEqual(0);

    await sortBy('Firmware');
    await expect.poll(async () => (await shownNames())[0]).toBe(FORMULA_NAME);
    const descending = parseCsv(await exportCsv())
      .slice(1)
      .map((row) => row[5]!);
    expect(descending[0]).toBe('4.100.2');
    expect(descending.at(-1)).toBe('4.9.3');
  });

  it('filters by attribute: text, number, version and boolean', async () => {
    await resetTable();
    const text = await addFilter('ATTRIBUTE');
    await text.getByLabel('Attribute').selectOption('name');
    await text.getByLabel('Operator').selectOption('Contains');
    await text.getByLabel('Value').fill('SPRAYER');
    await expectCount(`3 of ${total} devices`);
    expect(await shownNames()).toEqual(['Sprayer Row 1', 'Sprayer Row 2', 'Sprayer Row 3']);

    await text.getByLabel('Attribute').selectOption('lat');
    await text.getByLabel('Operator').selectOption('>');
    await text.getByLabel('Value').fill('33');
    await expectCount(`4 of ${total} devices`);
    expect(await shownNames()).toEqual(['Pump house', 'Sprayer Row 1', 'Sprayer Row 2', 'Sprayer Row 3']);

    await text.getByLabel('Attribute').selectOption('fw');
    await text.getByLabel('Operator').selectOption('<');
    await text.getByLabel('Value').fill('4.10');
    await expectCount(`1 of ${total} devices`);
    expect(await shownNames()).toEqual([OLD_FIRMWARE]);

    await text.getByLabel('Attribute').selectOption('isConnected');
    await text.getByLabel('Value').selectOption('false');
    await expectCount(`2 of ${total} devices`);
    expect(await shownNames()).toEqual([FORMULA_NAME, OLD_FIRMWARE]);
  });

  it('filters by group: include, exclude, only new groups, exclude all new groups', async () => {
    await resetTable();
    const group = await addFilter('GROUP');
    await group.getByLabel('Group filter mode').selectOption('INCLUDE');
    await group
      .getByLabel('Group', { exact: true })
      .selectOption({ label: 'Fieldlink Supply / Customers / Northgate Brewing / Cellar' });
    await expectCount(`3 of ${total} devices`);
    expect(await shownNames()).toEqual(['Bright tank BT1', 'Fermenter FV1', 'Fermenter FV2']);

    await group.getByLabel('Group filter mode').selectOption('EXCLUDE');
    await expectCount(`${total - 3} of ${total} devices`);

    await group.getByLabel('Group filter mode').selectOption('ONLY_NEW_GROUPS');
    await expectCount(`2 of ${total} devices`);
    expect(await shownNames()).toEqual([FORMULA_NAME, OLD_FIRMWARE]);

    await group.getByLabel('Group filter mode').selectOption('EXCLUDE_ALL_NEW_GROUPS');
    await expectCount(`${total - 2} of ${total} devices`);
  });

  it('filters by the selected alarm', async () => {
    await resetTable();
    const alarm = await addFilter('ALARM');
    await alarm.getByLabel('Alarm').selectOption('3');
    await expectCount(`1 of ${total} devices`);
    expect(await shownNames()).toEqual([OLD_FIRMWARE]);
    await alarm.getByLabel('Alarm').selectOption('NONE');
    await expect.poll(async () => (await shownNames()).includes(OLD_FIRMWARE)).toBe(false);
  });

  it('limits, and filters by distance in km and miles with the distance to 3 decimals', async () => {
    await resetTable();
    const limit = await addFilter('LIMIT');
    await limit.getByLabel('Limit').fill('5');
    await expectCount(`5 of ${total} devices`);
    await page.getByRole('button', { name: 'Remove filter' }).click();

    const geo = await addFilter('GEO_DISTANCE');
    await geo.getByLabel('Distance', { exact: true }).fill('10');
    await geo.getByLabel('Latitude').fill('33.2148');
    await geo.getByLabel('Longitude').fill('-97.1331');
    await expectCount(`4 of ${total} devices`);
    expect(await shownNames()).toEqual(['Pump house', 'Sprayer Row 1', 'Sprayer Row 2', 'Sprayer Row 3']);
    // From Denton, Irving's six devices are 36.1 km (22.4 miles) away, the next ones 54.3 km.
    await geo.getByLabel('Distance', { exact: true }).fill('30');
    await expectCount(`4 of ${total} devices`);
    await geo.getByLabel('Distance unit').selectOption('miles');
    await expectCount(`10 of ${total} devices`);
    await geo.getByLabel('Distance unit').selectOption('kilometers');
    await geo.getByLabel('Distance', { exact: true }).fill('40');
    await expectCount(`10 of ${total} devices`);
    await geo.getByLabel('Distance', { exact: true }).fill('10');
    await expectCount(`4 of ${total} devices`);

    await chooseColumn('Geo distance');
    await sortBy('Geo distance');
    const shownDistances = () =>
      page.evaluate(() => {
        const header = Array.from(document.querySelectorAll('.dt-head [role="columnheader"]'));
        const column = header.findIndex((cell) => cell.textContent?.includes('Geo distance'));
        return Array.from(document.querySelectorAll('.dt-row'))
          .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
          .map((row) => row.children[column]?.textContent ?? '');
      });
    // The rows follow the sort a moment after the header shows it.
    await expect.poll(async () => (await shownDistances())[0]).toBe('0.000');
    const distances = await shownDistances();
    expect(distances).toHaveLength(4);
    for (const distance of distances) expect(distance).toMatch(/^\d+\.\d{3}$/);
    expect([...distances].sort()).toEqual(distances);
  });

  it('keeps a column choice and a filter across a reload', async () => {
    await resetTable();
    await chooseColumn('ICCID');
    const filter = await addFilter('ATTRIBUTE');
    await filter.getByLabel('Value').fill('tank');
    await expectCount(`3 of ${total} devices`);
    await page.reload();
    await page.getByTestId('device-table').waitFor({ timeout: 30_000 });
    await expectCount(`3 of ${total} devices`);
    await expect(page.getByRole('columnheader', { name: 'ICCID' }).count()).resolves.toBe(1);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('deviceFilter') ?? 'null'));
    expect(stored).toEqual([
      { type: 'ATTRIBUTE', attribute: 'name', attributeType: 'string', operator: 'Contains', value: 'tank' },
    ]);
  });

  it('exports the filtered table as CSV, formulas neutralised', async () => {
    await resetTable();
    const filter = await addFilter('GROUP');
    await filter.getByLabel('Group filter mode').selectOption('ONLY_NEW_GROUPS');
    await expectCount(`2 of ${total} devices`);
    const csv = await exportCsv();
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const rows = parseCsv(csv);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual([
      'Name',
      'Connection status',
      'Site',
      'Group path',
      'Last connection',
      'Firmware',
      'Model',
      'Serial number',
      'Signal strength',
      'Plan',
    ]);
    const newDevices = 'Fieldlink Supply / Customers / Acme Controls / New Devices';
    // The formula-looking name starts with an apostrophe, so a spreadsheet shows it and runs nothing.
    expect(rows[1]).toEqual([
      `'${FORMULA_NAME}`,
      'Offline',
      '',
      newDevices,
      expect.any(String),
      '4.100.2',
      'Bench rig',
      '',
      '',
      'Free',
    ]);
    expect(rows[2]).toEqual([
      OLD_FIRMWARE,
      'Offline',
      '',
      newDevices,
      expect.any(String),
      '4.9.3',
      'Bench rig',
      '',
      '',
      'Free',
    ]);
    expect(rows[2]![4]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(csv).toContain('"\'=HYPERLINK(""http://evil.test"",""Click"")"');
  });

  it('selects rows for bulk actions and exports only those', async () => {
    await resetTable();
    await page.getByRole('checkbox', { name: 'Select Boiler 1' }).check();
    await page.getByRole('checkbox', { name: 'Select Boiler 2' }).check();
    await page.getByRole('region', { name: 'Selection' }).getByText('2 selected').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export selected' }).click(),
    ]);
    const rows = parseCsv(await readFile((await download.path())!, 'utf8'));
    expect(rows.map((row) => row[0])).toEqual(['Name', 'Boiler 1', 'Boiler 2']);
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByRole('region', { name: 'Selection' }).count()).resolves.toBe(0);
  });
});
