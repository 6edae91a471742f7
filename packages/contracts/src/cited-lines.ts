import { z } from "zod";
import { citationSchema } from "./conversations.ts";
import { contentSourceSchema } from "./provenance.ts";

/**
 * One line SAGE wrote from the user's data (a person's profile, a meeting dossier, a weekly review), with the sources
 * it rests on. `from` names the untrusted content the line's words came from ("the mail from Anna Berg of 3 Dec",
 * issue 47's content source), so it is shown, and treated later, as someone else's words; absent when the line
 * rests on the user's own data.
 */
export const citedLineSchema = z.object({
  text: z.string(),
  citations: z.array(citationSchema),
  from: contentSourceSchema.optional(),
});
export type CitedLine = z.infer<typeof citedLineSchema>;
