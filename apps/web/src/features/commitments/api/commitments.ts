import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  commitmentListSchema,
  commitmentSchema,
  type CommitmentDirection,
  type CommitmentList,
  type CommitmentStatus,
  type UpdateCommitmentRequest,
} from "@sage/contracts/commitments";
import { reminderSchema } from "@sage/contracts/reminders";
import { z } from "zod";
import { apiRequest, getJson } from "@/lib/api-client";
import { pollEvery } from "@/lib/poll-every";

export const commitmentsQueryKey = ["commitments"] as const;

export interface CommitmentFilter {
  show?: CommitmentDirection;
  status: CommitmentStatus | "all";
}

export function useCommitments(filter: CommitmentFilter) {
  const params = new URLSearchParams({ status: filter.status, ...(filter.show ? { show: filter.show } : {}) });
  return useQuery({
    queryKey: [...commitmentsQueryKey, filter.show ?? "both", filter.status],
    queryFn: async (): Promise<CommitmentList | null> => getJson(`/api/commitments?${params}`, commitmentListSchema),
    // While SAGE reads new items, the list is read again until it is done.
    refetchInterval: (query) => (query.state.data?.extraction.running ? pollEvery(2_000) : false),
  });
}

const remindedSchema = z.object({ reminder: reminderSchema, commitment: commitmentSchema });

/** Done, dismissed, a due date, and Remind me (which also refreshes the reminders). */
export function useCommitmentActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: commitmentsQueryKey });
  return {
    update: useMutation({
      mutationFn: ({ id, change }: { id: number; change: UpdateCommitmentRequest }) =>
        apiRequest(`/api/commitments/${id}`, { method: "PATCH", body: change, schema: commitmentSchema }),
      onSuccess: refresh,
    }),
    scan: useMutation({
      mutationFn: () => apiRequest("/api/commitments/scan", { method: "POST" }),
      onSuccess: refresh,
    }),
    remind: useMutation({
      mutationFn: (id: number) => apiRequest(`/api/commitments/${id}/reminder`, { method: "POST", schema: remindedSchema }),
      onSuccess: async () => {
        await refresh();
        await queryClient.invalidateQueries({ queryKey: ["reminders"] });
      },
    }),
  };
}
