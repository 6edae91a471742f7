/**
 * A PDF of `pages` pages that all show one shared line of text, written as raw PDF objects: 100,000 pages take
 * about 10 MB and a fraction of a second, where building them with pdf-lib takes minutes. Each page's text layer
 * has enough letters to be read as text, so no page goes to text recognition.
 */
export function makeManyPagePdf(pages: number, line = "Quarterly figures for the northern region, page after page."): Buffer {
  const parts: string[] = [];
  const offsets: number[] = [];
  let length = 0;
  const write = (text: string) => {
    parts.push(text);
    length += Buffer.byteLength(text, "latin1");
  };
  const object = (id: number, body: string) => {
    offsets[id] = length;
    write(`${id} 0 obj\n${body}\nendobj\n`);
  };
  const content = `BT /F1 12 Tf 72 720 Td (${line}) Tj ET`;
  const firstPage = 5;
  write("%PDF-1.4\n");
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  const kids = Array.from({ length: pages }, (_, index) => `${firstPage + index} 0 R`).join(" ");
  object(2, `<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`);
  object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  object(4, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  for (let index = 0; index < pages; index++) {
    object(firstPage + index, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>");
  }
  const count = firstPage + pages;
  const xref = length;
  write(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id++) write(`${String(offsets[id]).padStart(10, "0")} 00000 n \n`);
  write(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.from(parts.join(""), "latin1");
}
