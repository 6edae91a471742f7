import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { personListSchema, personSchema, type UpdatePersonRequest } from "@sage/contracts/people";
import { apiRequest, getJson } from "@/lib/api-client";

export const peopleQueryKey = ["people"] as const;

/** GET /api/people?q=: the people matching a search (all, newest contact first, when it is empty). */
export function usePeople(query: string, hidden = false) {
  const params = new URLSearchParams({ ...(query.trim() ? { q: query.trim() } : {}), ...(hidden ? { hidden: "true" } : {}) });
  return useQuery({
    queryKey: [...peopleQueryKey, "list", query.trim(), hidden],
    queryFn: () => getJson(`/api/people?${params}`, personListSchema),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/people/{id}; while a profile is being written in the background, read again until it is there. */
export function usePerson(id: number | null) {
  return useQuery({
    queryKey: [...peopleQueryKey, "person", id],
    queryFn: () => getJson(`/api/people/${id}`, personSchema),
    enabled: id !== null,
  });
}

/** Corrections, merge, hide and writing the profile again; each refreshes the people shown. */
export function usePersonActions(id: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: peopleQueryKey });
  return {
    update: useMutation({
      mutationFn: (patch: UpdatePersonRequest) => apiRequest(`/api/people/${id}`, { method: "PATCH", body: patch, schema: personSchema }),
      onSuccess: refresh,
    }),
    merge: useMutation({
      mutationFn: (otherId: number) => apiRequest(`/api/people/${id}/merge`, { method: "POST", body: { otherId }, schema: personSchema }),
      onSuccess: refresh,
    }),
    profile: useMutation({
      mutationFn: () => apiRequest(`/api/people/${id}/profile`, { method: "POST", schema: personSchema }),
      onSuccess: refresh,
    }),
  };
}
