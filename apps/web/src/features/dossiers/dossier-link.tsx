import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dossierSchema } from "@sage/contracts/dossiers";
import { Link, useLocation } from "wouter";
import { ApiError, apiRequest, getJson } from "@/lib/api-client";

const dossierKey = (eventId: number) => ["dossiers", eventId] as const;

/** GET /api/dossiers?eventId=: the event's dossier, or null when none was prepared (404). */
async function readDossier(eventId: number) {
  try {
    return await getJson(`/api/dossiers?eventId=${eventId}`, dossierSchema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * On a Today panel meeting row: "Dossier" opens the meeting's dossier in its Meetings conversation; "Prepare now"
 * writes one for a meeting that has none yet and opens it.
 */
export function DossierLink({ eventId, title }: { eventId: number; title: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const dossier = useQuery({ queryKey: dossierKey(eventId), queryFn: () => readDossier(eventId) });
  const prepare = useMutation({
    mutationFn: () => apiRequest("/api/dossiers", { method: "POST", body: { eventId }, schema: dossierSchema }),
    onSuccess: (prepared) => {
      queryClient.setQueryData(dossierKey(eventId), prepared);
      navigate(`/conversations/${prepared.conversationId}`);
    },
  });
  if (dossier.isPending || dossier.isError) return null;
  if (dossier.data)
    return (
      <Link
        href={`/conversations/${dossier.data.conversationId}`}
        className="shrink-0 text-xs text-primary hover:underline"
        aria-label={`Dossier for ${title}`}
      >
        Dossier
      </Link>
    );
  return (
    <button
      type="button"
      className="shrink-0 text-xs text-primary hover:underline disabled:opacity-50"
      aria-label={`Prepare now a dossier for ${title}`}
      disabled={prepare.isPending}
      onClick={() => prepare.mutate()}
    >
      {prepare.isPending ? "Preparing…" : "Prepare now"}
    </button>
  );
}
