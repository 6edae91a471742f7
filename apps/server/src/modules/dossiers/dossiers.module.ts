import type { Kysely } from "kysely";
import {
  DOSSIER_TEXTS,
  dossierQuerySchema,
  dossierSchema,
  dossierSettingsSchema,
  eventNoteSchema,
  eventNotesRequestSchema,
  prepareDossierSchema,
} from "@sage/contracts/dossiers";
import type { AppModule } from "../../http/app-module.ts";
import { firstMessage } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { Database } from "../../store/schema.ts";
import type { ConversationMessagesPort, ConversationStarterPort } from "../conversations/conversations.module.ts";
import type { PeoplePort } from "../people/people.module.ts";
import { createDossiersService, type DossierDeps } from "./dossiers.service.ts";

/** How often the round looks for meetings coming up. */
const ROUND_MS = 60_000;

export interface DossiersModule extends AppModule {
  /** The round now (tests move the clock): answers how many dossiers it prepared. */
  control: { prepareDue(): Promise<number> };
}

/** Meeting dossiers (issue 53, decision 097): /api/dossiers, /api/settings/dossiers, and the round before meetings. */
export function createDossiersModule(deps: {
  db: Kysely<Database>;
  people: PeoplePort;
  starter: ConversationStarterPort;
  messages: ConversationMessagesPort;
  notes: DossierDeps["notes"];
  notify?: DossierDeps["notify"];
  now?: () => Date;
  warn(message: string, error?: unknown): void;
}): DossiersModule {
  const service = createDossiersService({ ...deps, now: deps.now ?? (() => new Date()) });
  let round: NodeJS.Timeout | undefined;
  return {
    control: { prepareDue: service.prepareDue },
    register(app) {
      const api = app.withTypeProvider<ZodTypeProvider>();
      const config = { invalidInput: { query: firstMessage(DOSSIER_TEXTS.eventIdInvalid), body: firstMessage(DOSSIER_TEXTS.eventIdInvalid) } };
      api.get(
        "/api/dossiers",
        {
          config,
          schema: {
            summary: "The dossier of a calendar event, or 404 when none was prepared",
            querystring: dossierQuerySchema,
            response: { 200: dossierSchema },
          },
        },
        async (request) => service.get(requireUser(request).id, request.query.eventId),
      );
      api.post(
        "/api/dossiers",
        {
          config,
          schema: {
            summary: "Prepare the event's dossier now (Prepare now), delivered in its Meetings conversation",
            body: prepareDossierSchema,
            response: { 200: dossierSchema },
          },
        },
        async (request) => service.prepare(requireUser(request).id, request.body.eventId),
      );
      api.post(
        "/api/dossiers/notes",
        {
          config: { invalidInput: { body: firstMessage(DOSSIER_TEXTS.notesInvalid) } },
          schema: {
            summary: "Add notes after a meeting: filed as a note of the event (searchable; read by the commitments scan)",
            body: eventNotesRequestSchema,
            response: { 200: eventNoteSchema },
          },
        },
        async (request) => service.addNotes(requireUser(request).id, request.body.eventId, request.body.text),
      );
      const settingsConfig = { invalidInput: { body: firstMessage(DOSSIER_TEXTS.minutesInvalid) } };
      api.get(
        "/api/settings/dossiers",
        { schema: { summary: "How long before a meeting its dossier is prepared, and from which calendars", response: { 200: dossierSettingsSchema } } },
        async (request) => service.settings(requireUser(request).id),
      );
      api.put(
        "/api/settings/dossiers",
        {
          config: settingsConfig,
          schema: {
            summary: "Set the lead time (minutes) and the calendars (account ids; absent: all)",
            body: dossierSettingsSchema,
            response: { 200: dossierSettingsSchema },
          },
        },
        async (request) => service.saveSettings(requireUser(request).id, request.body),
      );
      app.addHook("onReady", async () => {
        round = setInterval(() => void service.prepareDue().catch((error: unknown) => deps.warn("the dossier round failed", error)), ROUND_MS);
        round.unref();
      });
      app.addHook("onClose", async () => clearInterval(round));
    },
  };
}
