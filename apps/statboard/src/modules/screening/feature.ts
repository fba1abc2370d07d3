import type { Feature } from '#src/feature.ts';
import { ScreeningMemory } from './memory.ts';
import { reviewRoutes } from './routes.ts';
import { ReviewItem } from './schemas.ts';
import { ReviewService } from './service.ts';
import { ScreeningStage } from './stage.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** The screening stage of client uploads: held values, the daily limit of new statistics, shared keys. */
    readonly screening: ScreeningStage;
    /** The review queue of held values. */
    readonly review: ReviewService;
  }
}

/** Uploads that do not add up: screening of client uploads, and the review queue. */
export const screeningFeature = {
  name: 'screening',
  services: { review: (s) => new ReviewService(s.db, s.audit, s.ingest.writer) },
  // One per process: it counts each client key's players in memory.
  shared: {
    screening: (s) =>
      new ScreeningStage(
        s.db,
        s.outbox,
        s.metrics,
        s.config.clientNewStatsPerDay,
        Date.now,
        ScreeningMemory.on(s.changes),
      ),
  },
  schemas: [ReviewItem],
  routes: (s, { admin }) => ({ v1: [reviewRoutes(s.review, admin)] }),
} satisfies Feature;
