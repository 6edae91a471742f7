import { z } from "zod";
import { citationSchema } from "./conversations.ts";

/**
 * One line SAGE wrote from the user's data (a person's profile, a meeting dossier, a weekly review), with the sources
 * it rests on. `from` names the untrusted content the line's words came from ("the mail of Anna Berg, 3 Dec"), so
 * it is shown, and treated later, as someone else's words; absent when the line rests on the user's own data.
 */
export const citedLineSchema = z.object({
  text: z.string(),
  citations: z.array(citationSchema),
  from: z.string().optional(),
});
export type CitedLine = z.infer<typeof citedLineSchema>;
