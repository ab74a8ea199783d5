import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import type { ReportMeta } from '@fieldlink/api/reports';
import { apiToken, callApi, launchBrowser, signInAs, startServer, type RunningServer } from './harness';

/** The text a PDF draws: its content streams inflated, the hex strings of its text operators decoded. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let text = '';
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g)) text += Buffer.from(hex[1]!, 'hex').toString('latin1');
    text += '\n';
  }
  return text;
}

/**
 * Reports in Chromium against the real product: the demo's finished and failed reports, a report
 * made in the dialog that completes while watched and is downloaded, its CSV's figures checked
 * against the stored logs, and a PDF that parses with its pages and text.
 */
describe('reports page', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    token = await apiToken(server.baseUrl, 'brew@fieldlink.test');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    await signInAs(page, server.baseUrl, 'brew@fieldlink.test');
    await page.waitForURL((url) => !/\/(signin|loading)/.test(url.pathname), { timeout: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('starts with the demo’s finished reports and the failed one with its error, and a weekly schedule', async () => {
    await page.goto(`${server.baseUrl}/reports`);
    const rows = page.getByTestId('report-row');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    const plant = rows.filter({ hasText: 'Plant summary' });
    await expect.poll(() => plant.getByText('Complete').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => rows.filter({ hasText: 'Daily operations' }).getByText('Complete').count()).toBe(1);
    const failed = rows.filter({ hasText: 'Commissioning month' });
    expect(await failed.getByText('No samples were logged for the chosen channels in the period.').count()).toBe(1);

    // The tag filter keeps items sharing a tag; the search looks in names and comments.
    await page.getByRole('button', { name: 'operations', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole('button', { name: 'operations', exact: true }).click();
    await page.getByLabel('Search name or comments').fill('MANAGER');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Plant summary');
    await page.getByLabel('Search name or comments').fill('');

    await page.getByRole('link', { name: 'Schedules' }).click();
    await page.waitForURL(/\/reports\/schedules$/);
    await expect.poll(() => page.getByTestId('schedule-row').count()).toBe(1);
    expect(await page.getByTestId('schedule-row').textContent()).toContain('Weekly on Monday at 07:00');
  });

  it('makes a report in the dialog, watches it complete, downloads it, and its figures are the stored logs’', async () => {
    await page.goto(`${server.baseUrl}/reports`);
    await page.getByRole('button', { name: 'New report' }).click();
    const dialog = page.getByRole('dialog', { name: 'New report' });
    await dialog.getByLabel('Name', { exact: true }).fill('E2E fermenter');
    await dialog.getByLabel('Find a device or group').fill('Fermenter FV1');
    await dialog.getByRole('button', { name: 'Show the channels of Fermenter FV1' }).click();
    await dialog.getByRole('checkbox', { name: /\(c1\)/ }).check();
    await dialog.getByLabel('Figures per').selectOption('MINUTES_15');
    // Sharing with a group that holds the device is allowed; the rule says so as it is chosen.
    await dialog.getByLabel('Visibility').selectOption('SELECTED_GROUPS_IN_SCOPE');
    expect(await dialog.getByTestId('access-validity').textContent()).toBe('Choose at least one group.');
    await dialog.getByRole('checkbox', { name: 'Cellar', exact: true }).check();
    expect(await dialog.getByTestId('access-validity').textContent()).toBe(
      'Everyone chosen already sees all of these devices.',
    );
    await dialog.getByRole('button', { name: 'Generate report' }).click();

    const row = page.getByTestId('report-row').filter({ hasText: 'E2E fermenter' });
    await expect.poll(() => row.getByText('Complete').count(), { timeout: 60_000 }).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^e2e-fermenter-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.split('\r\n').filter((line) => line !== '');
    const header = lines[0]!.split(',');
    const intervals = lines
      .slice(1)
      .map((line) => line.split(','))
      .filter((cells) => cells[0] === 'interval');
    expect(intervals.length).toBeGreaterThan(80);
    const column = (cells: string[], name: string) => cells[header.indexOf(name)]!;

    // The stored samples of one interval, read through the API, give the same figures.
    const reports = (
      await callApi<ReportMeta[]>(server.baseUrl, 'GET', `/reports/meta?accountId=${await accountId()}`, token)
    ).json;
    const report = reports.find((item) => item.name === 'E2E fermenter')!;
    const deviceId = report.props.devices[0]!.deviceId;
    for (const cells of [intervals[0]!, intervals[Math.floor(intervals.length / 2)]!]) {
      const start = Date.parse(column(cells, 'start'));
      const end = Date.parse(column(cells, 'end'));
      const logs = (
        await callApi<DeviceLogsAnswer>(
          server.baseUrl,
          'GET',
          `/device-logs?format=GROUPED_BY_CHANNEL&deviceId=${deviceId}&channels=c1&start=${start}&end=${end}&binCount=1000`,
          token,
        )
      ).json.channels.c1!;
      expect(logs.kind).toBe('raw');
      const values = logs.kind === 'raw' ? logs.value : [];
      expect(values.length).toBeGreaterThan(0);
      const close = (text: string, value: number) => expect(Number(text)).toBeCloseTo(value, 6);
      close(column(cells, 'min'), Math.min(...values));
      close(column(cells, 'max'), Math.max(...values));
      close(column(cells, 'mean'), values.reduce((sum, value) => sum + value, 0) / values.length);
      close(column(cells, 'last'), values[values.length - 1]!);
    }
  });

  it('writes a PDF that parses: its pages, the report’s name and its channels', async () => {
    const id = await accountId();
    const reports = (await callApi<ReportMeta[]>(server.baseUrl, 'GET', `/reports/meta?accountId=${id}`, token)).json;
    const template = reports.find((item) => item.name === 'E2E fermenter')!.props;
    const created = await callApi<ReportMeta>(server.baseUrl, 'POST', '/report', token, {
      accountId: id,
      name: 'E2E charts',
      props: {
        format: 'PDF',
        visibility: 'CREATOR_ONLY',
        access: { type: 'CREATOR_ONLY', groupIds: [], users: [] },
        notifyAudience: 'NOBODY',
        notifyUsers: [],
        devices: template.devices,
        interval: 'HOUR',
        start: template.start,
        end: template.end,
      },
    });
    expect(created.status).toBe(200);
    await page.goto(`${server.baseUrl}/reports`);
    const row = page.getByTestId('report-row').filter({ hasText: 'E2E charts' });
    await expect.poll(() => row.getByText('Complete').count(), { timeout: 60_000 }).toBe(1);
    const { url } = (
      await callApi<{ url: string }>(server.baseUrl, 'GET', `/report?id=${created.json.id}&accountId=${id}`, token)
    ).json;
    const pdf = Buffer.from(await (await fetch(`${server.baseUrl}${url}`)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Cover, summary and one page of charts.
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(3);
    const text = pdfText(pdf);
    expect(text).toContain('E2E charts');
    expect(text).toContain('Northgate Brewing');
    expect(text).toContain('Fermenter FV1');
  });

  it('shows each schedule on a phone as a card whose times and sharing say what they are', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signInAs(phone, server.baseUrl, 'brew@fieldlink.test');
    await phone.waitForURL((url) => !/\/(signin|loading)/.test(url.pathname), { timeout: 30_000 });
    await phone.goto(`${server.baseUrl}/reports/schedules`);
    const card = phone.getByTestId('schedule-row').first();
    await card.waitFor({ timeout: 30_000 });
    expect(await phone.locator('.reports-table thead').isVisible()).toBe(false);
    // The column headers are hidden on a phone: each cell carries its own label, drawn beside its value.
    const labels = await card.locator('td[data-label]').evaluateAll((cells) =>
      cells.map((cell) => {
        const label = getComputedStyle(cell, '::before');
        return { label: label.content, shown: label.display !== 'none', value: cell.textContent };
      }),
    );
    expect(labels.map(({ label }) => label)).toEqual(['"Runs"', '"Next run"', '"Sharing"']);
    for (const { shown, value } of labels) {
      expect(shown).toBe(true);
      expect(value).not.toBe('');
    }
    expect(labels[0]!.value).toContain('Weekly on Monday at 07:00');
    const box = await card.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: 'test-results/phone/report-schedules.png', fullPage: true });
    await phone.context().close();
  });

  it('deletes the chosen reports with one call each and says how many went', async () => {
    await page.goto(`${server.baseUrl}/reports`);
    const names = ['E2E fermenter', 'E2E charts'];
    for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    await page.getByRole('button', { name: 'Delete 2' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 reports?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('2 reports deleted.').waitFor();
    for (const name of names) {
      await expect.poll(() => page.getByTestId('report-row').filter({ hasText: name }).count()).toBe(0);
    }
    const left = (
      await callApi<ReportMeta[]>(server.baseUrl, 'GET', `/reports/meta?accountId=${await accountId()}`, token)
    ).json;
    expect(left.map((report) => report.name)).not.toContain('E2E charts');
  });

  async function accountId(): Promise<string> {
    const self = (await callApi<{ linkedAccounts: { accountId: string }[] }>(server.baseUrl, 'GET', '/self', token))
      .json;
    return self.linkedAccounts[0]!.accountId;
  }
});
