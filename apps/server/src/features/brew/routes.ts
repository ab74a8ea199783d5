import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BREW_PATHS,
  Batch,
  BatchIdBody,
  BatchIdQuery,
  BatchItemBody,
  BrewBatchesAnswer,
  BrewBatchesQuery,
  BrewMeta,
  BrewOverviewQuery,
  BrewReport,
  DeletedBatchAnswer,
  PutAnnotationBody,
  PutBatchBody,
  PutGravityBody,
  PutSensoryBody,
  ReportIdQuery,
  ReportUrlAnswer,
  StartBatchBody,
  Tank,
  TankCalibrationBody,
} from '@fieldlink/api/brew';
import { ErrorAnswer, LimitAnswer } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { BrewService } from './service';

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer };
const tags = ['brew'];

/** Brewing calls of application §7. */
export const brewRoutes: FastifyPluginAsyncTypebox<{ brew: BrewService }> = async (app, { brew }) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    BREW_PATHS.overview,
    {
      schema: {
        tags,
        summary:
          'Brew summary of a group: every device of the group as a tank, with its state, estimate and batch; the tank named by tankNumber with its log',
        querystring: BrewOverviewQuery,
        response: { 200: BrewMeta, ...errors },
      },
    },
    (request) => brew.overview(signedInUser(request), request.query),
  );
  app.get(
    BREW_PATHS.batches,
    {
      schema: {
        tags,
        summary: 'Batches of the group’s tanks, newest first (isDemoMode: the demo batches instead)',
        querystring: BrewBatchesQuery,
        response: { 200: BrewBatchesAnswer, ...errors },
      },
    },
    (request) => brew.batches(signedInUser(request), request.query),
  );
  app.get(
    BREW_PATHS.batch,
    {
      schema: {
        tags,
        summary: 'One batch with its gravity readings, tasting notes, annotations, transitions and reports',
        querystring: BatchIdQuery,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.batch(signedInUser(request), request.query.batchId),
  );
  app.post(
    BREW_PATHS.batch,
    {
      schema: {
        tags,
        summary: 'Start a batch on a tank without one (needs EDIT_BREW_INFO)',
        body: StartBatchBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.start(signedInUser(request), request.body),
  );
  app.put(
    BREW_PATHS.batch,
    {
      schema: {
        tags,
        summary: 'Change batch info (needs EDIT_BREW_INFO)',
        body: PutBatchBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.update(signedInUser(request), request.body),
  );
  app.delete(
    BREW_PATHS.batch,
    {
      schema: {
        tags,
        summary: 'Delete a batch and everything recorded on it (needs BREW_DELETE)',
        body: BatchIdBody,
        response: { 200: DeletedBatchAnswer, ...errors },
      },
    },
    (request) => brew.remove(signedInUser(request), request.body),
  );
  app.post(
    BREW_PATHS.end,
    {
      schema: {
        tags,
        summary: 'End a batch: MANUALLY_ENDED, the tank goes idle, a report is generated (needs END_BREW)',
        body: BatchIdBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.end(signedInUser(request), request.body),
  );
  app.delete(
    BREW_PATHS.end,
    {
      schema: {
        tags,
        summary: 'Take back the end of a batch, if its tank has not started another (needs END_BREW)',
        body: BatchIdBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.resume(signedInUser(request), request.body),
  );
  app.put(
    BREW_PATHS.gravity,
    {
      schema: {
        tags,
        summary: 'Add a gravity reading, or change the one named by id (needs EDIT_BREW_INFO)',
        body: PutGravityBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.putGravity(signedInUser(request), request.body),
  );
  app.delete(
    BREW_PATHS.gravity,
    {
      schema: {
        tags,
        summary: 'Delete a gravity reading (needs EDIT_BREW_INFO)',
        body: BatchItemBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.deleteGravity(signedInUser(request), request.body),
  );
  app.put(
    BREW_PATHS.sensory,
    {
      schema: {
        tags,
        summary: 'Add a tasting note, or change the one named by id; it is marked on the chart (needs EDIT_BREW_INFO)',
        body: PutSensoryBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.putSensory(signedInUser(request), request.body),
  );
  app.delete(
    BREW_PATHS.sensory,
    {
      schema: {
        tags,
        summary: 'Delete a tasting note and its mark on the chart (needs EDIT_BREW_INFO)',
        body: BatchItemBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.deleteSensory(signedInUser(request), request.body),
  );
  app.put(
    BREW_PATHS.annotation,
    {
      schema: {
        tags,
        summary: 'Add an annotation to the chart, or change the one named by id (needs EDIT_BREW_INFO)',
        body: PutAnnotationBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.putAnnotation(signedInUser(request), request.body),
  );
  app.delete(
    BREW_PATHS.annotation,
    {
      schema: {
        tags,
        summary: 'Delete an annotation (needs EDIT_BREW_INFO)',
        body: BatchItemBody,
        response: { 200: Batch, ...errors },
      },
    },
    (request) => brew.deleteAnnotation(signedInUser(request), request.body),
  );
  app.post(
    BREW_PATHS.reportGenerate,
    {
      schema: {
        tags,
        summary:
          'Generate a batch report (PDF) in the background; poll its state. Batch reports generating and kept ' +
          'are limited per user and per account (429 naming the limit)',
        body: BatchIdBody,
        response: { 200: BrewReport, ...errors, 429: LimitAnswer },
      },
    },
    (request) => brew.generateReport(signedInUser(request), request.body),
  );
  app.get(
    BREW_PATHS.report,
    {
      schema: {
        tags,
        summary: 'A link to a ready report’s PDF, valid for five minutes',
        querystring: ReportIdQuery,
        response: { 200: ReportUrlAnswer, ...errors },
      },
    },
    (request) => brew.reportUrl(signedInUser(request), request.query.id),
  );
  app.get(
    BREW_PATHS.reportState,
    {
      schema: {
        tags,
        summary: 'State of a batch report: GENERATING, READY, AWAITING_USER, ERROR or DELETING',
        querystring: ReportIdQuery,
        response: { 200: BrewReport, ...errors },
      },
    },
    (request) => brew.reportState(signedInUser(request), request.query.id),
  );
  app.put(
    BREW_PATHS.calibration,
    {
      schema: {
        tags,
        summary:
          'Calibrate a tank: CO2 total gain (needs BREW_CALIB_CO2_TOTAL_GAIN), tank level scale and offset, capacity (EDIT_BREW_INFO)',
        body: TankCalibrationBody,
        response: { 200: Tank, ...errors },
      },
    },
    (request) => brew.calibrate(signedInUser(request), request.body),
  );
};
