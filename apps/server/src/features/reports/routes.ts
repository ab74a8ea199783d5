import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorAnswers, LimitAnswer } from '@fieldlink/api/errors';
import { FileUrlAnswer } from '@fieldlink/api/files';
import {
  NewReportBody,
  NewScheduleBody,
  REPORTS_META_PATH,
  REPORTS_SCHEDULES_PATH,
  REPORTS_SCHEDULE_PATH,
  REPORT_META_PATH,
  REPORT_PATH,
  REPORT_PUBLIC_PATH,
  ReportFileQuery,
  ReportMeta,
  ReportMetaList,
  ReportMetaUpdate,
  ReportRef,
  ReportSchedule,
  ReportScheduleList,
  ReportsMetaQuery,
  ScheduleUpdate,
  SchedulesQuery,
} from '@fieldlink/api/reports';
import { FILE_LINK_INVALID, sendStoredFile } from '../../documents/file-routes';
import type { FileStore } from '../../documents/file-store';
import { notFound } from '../../http-errors';
import { signedInUser } from '../../plugins/auth';
import type { ReportService } from './service';

const errors = errorAnswers(400, 401, 403, 404, 409);

/** Report and schedule calls of application §7, exactly as listed, and the public link. */
export const reportRoutes: FastifyPluginAsyncTypebox<{ reports: ReportService }> = async (app, { reports }) => {
  const tags = ['reports'];

  app.addHook('onRequest', app.authenticate);
  app.get(
    REPORTS_META_PATH,
    {
      schema: {
        tags,
        summary: 'The report metas of an account the caller may see, newest first (READ_REPORTS)',
        querystring: ReportsMetaQuery,
        response: { 200: ReportMetaList, ...errors },
      },
    },
    (request) => reports.list(signedInUser(request), request.query),
  );
  app.get(
    REPORT_META_PATH,
    {
      schema: {
        tags,
        summary: 'One report meta with its state (READ_REPORTS); the console polls a generating one every 10 s',
        querystring: ReportRef,
        response: { 200: ReportMeta, ...errors },
      },
    },
    (request) => reports.get(signedInUser(request), request.query),
  );
  app.post(
    REPORT_PATH,
    {
      schema: {
        tags,
        summary:
          'Create a report (CUD_REPORTS); it is generated as a job and answered GENERATING. Reports generating ' +
          'and kept are limited per user and per account (429 naming the limit)',
        body: NewReportBody,
        response: { 200: ReportMeta, ...errors, 429: LimitAnswer },
      },
    },
    (request) => reports.create(signedInUser(request), request.body),
  );
  app.put(
    REPORT_META_PATH,
    {
      schema: {
        tags,
        summary: 'Change a report’s name, comments, tags or sharing (CUD_REPORTS; its creator or an administrator)',
        body: ReportMetaUpdate,
        response: { 200: ReportMeta, ...errors },
      },
    },
    (request) => reports.update(signedInUser(request), request.body),
  );
  app.delete(
    REPORT_PATH,
    {
      schema: {
        tags,
        summary: 'Delete a report (CUD_REPORTS): DELETING while its file goes',
        body: ReportRef,
        response: { 200: ReportMeta, ...errors },
      },
    },
    (request) => reports.remove(signedInUser(request), request.body),
  );
  app.get(
    REPORT_PATH,
    {
      schema: {
        tags,
        summary: 'A short-lived signed URL of a ready report’s file, to open or download (READ_REPORTS)',
        querystring: ReportFileQuery,
        response: { 200: FileUrlAnswer, ...errors },
      },
    },
    (request) => reports.fileUrl(signedInUser(request), request.query),
  );
  app.post(
    REPORTS_SCHEDULE_PATH,
    {
      schema: {
        tags,
        summary:
          'Create a report schedule (CUD_REPORT_SCHEDULES); limited per user and per account (429 naming the limit)',
        body: NewScheduleBody,
        response: { 200: ReportSchedule, ...errors, 429: LimitAnswer },
      },
    },
    (request) => reports.createSchedule(signedInUser(request), request.body),
  );
  app.put(
    REPORTS_SCHEDULE_PATH,
    {
      schema: {
        tags,
        summary: 'Change a report schedule (CUD_REPORT_SCHEDULES)',
        body: ScheduleUpdate,
        response: { 200: ReportSchedule, ...errors },
      },
    },
    (request) => reports.updateSchedule(signedInUser(request), request.body),
  );
  app.get(
    REPORTS_SCHEDULES_PATH,
    {
      schema: {
        tags,
        summary: 'Every report schedule the caller may see (READ_REPORT_SCHEDULES)',
        querystring: SchedulesQuery,
        response: { 200: ReportScheduleList, ...errors },
      },
    },
    (request) => reports.schedules(signedInUser(request), request.query),
  );
  app.delete(
    REPORTS_SCHEDULE_PATH,
    {
      schema: {
        tags,
        summary: 'Delete a report schedule (CUD_REPORT_SCHEDULES); its reports stay',
        body: ReportRef,
        response: { 200: ReportSchedule, ...errors },
      },
    },
    (request) => reports.removeSchedule(signedInUser(request), request.body),
  );
};

/** A report's public link: no session, its 256-bit token is the whole grant (SECURITY.md 20). */
export const reportPublicRoutes: FastifyPluginAsyncTypebox<{ reports: ReportService; files: FileStore }> = async (
  app,
  { reports, files },
) => {
  app.get(
    `${REPORT_PUBLIC_PATH}/:token`,
    {
      schema: {
        tags: ['reports'],
        summary: 'The file of a PUBLIC report through its public link; 404 once revoked or deleted',
        security: [],
        params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: errorAnswers(404),
      },
    },
    async (request, reply) => {
      const file = await reports.publicFile(request.params.token);
      if (!file) throw notFound(FILE_LINK_INVALID);
      return sendStoredFile(reply, files, file, false);
    },
  );
};
