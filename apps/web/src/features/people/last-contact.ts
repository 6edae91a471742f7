import { formatDistanceToNowStrict } from "date-fns";

/** "3 days ago", or "never". */
export const lastContactText = (iso: string | null) => (iso ? `${formatDistanceToNowStrict(new Date(iso))} ago` : "never");
