import { useEffect } from "react";

export const APP_TITLE = "SAGE";

/** The browser tab's text for a page: "Board prep - SAGE"; just "SAGE" while the page has no title yet. */
export const documentTitle = (page: string | undefined) => (page ? `${page} - ${APP_TITLE}` : APP_TITLE);

/** Titles the browser tab after the page (issue 33 item 16), so a user with several tabs can tell them apart. */
export function useDocumentTitle(page: string | undefined) {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
