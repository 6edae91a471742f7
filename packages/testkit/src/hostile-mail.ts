/**
 * Mails a hostile or merely odd mailbox holds (issue 52 items 5 and 6), as raw RFC 822 text for a Dovecot mailbox:
 * one with thousands of attachments, one larger than the upload limit, a bounce, one starting with a byte-order mark.
 */

const header = (fields: { from: string; subject: string; date: Date; messageId: string; type: string }) => [
  `From: ${fields.from}`,
  "To: Exec <exec@example.com>",
  `Subject: ${fields.subject}`,
  `Date: ${fields.date.toUTCString().replace("GMT", "+0000")}`,
  `Message-ID: ${fields.messageId}`,
  "MIME-Version: 1.0",
  `Content-Type: ${fields.type}`,
];

/** One message carrying `count` small text attachments ("note-1.txt" ... each naming its number). */
export function manyAttachments(count: number, fields: { date: Date; messageId: string }): string {
  const parts = Array.from({ length: count }, (_, n) => [
    "--many",
    `Content-Type: text/plain; name="note-${n + 1}.txt"`,
    `Content-Disposition: attachment; filename="note-${n + 1}.txt"`,
    "",
    `Attached note number ${n + 1}.`,
  ]);
  return [
    ...header({
      from: "Spammer <bulk@attach.example>",
      subject: `${count.toLocaleString("en-US")} attachments`,
      ...fields,
      type: 'multipart/mixed; boundary="many"',
    }),
    "",
    "--many",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Please see the attached notes.",
    ...parts.flat(),
    "--many--",
    "",
  ].join("\r\n");
}

/** One message whose single attachment (`bytes` of base64 text) makes it larger than an upload may be. */
export function oversizedMessage(bytes: number, fields: { date: Date; messageId: string }): string {
  const line = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3";
  const lines = Math.ceil(bytes / (line.length + 2));
  return [
    ...header({ from: "Anna Keller <anna@kestrel.example>", subject: "Kestrel data room export", ...fields, type: 'multipart/mixed; boundary="big"' }),
    "",
    "--big",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "The whole data room, zipped.",
    "--big",
    'Content-Type: application/zip; name="data-room.zip"',
    'Content-Disposition: attachment; filename="data-room.zip"',
    "Content-Transfer-Encoding: base64",
    "",
    Array.from({ length: lines }, () => line).join("\r\n"),
    "--big--",
    "",
  ].join("\r\n");
}

/** A bounce whose readable words sit in its message/delivery-status part, with the returned message. */
export function bounceMessage(fields: { date: Date; messageId: string }): string {
  return [
    ...header({
      from: "Mail Delivery System <MAILER-DAEMON@mx.example.com>",
      subject: "Undelivered Mail Returned to Sender",
      ...fields,
      type: 'multipart/report; report-type=delivery-status; boundary="report"',
    }),
    "",
    "--report",
    "Content-Type: message/delivery-status",
    "",
    "Your message to anna.keller@kestrel.example could not be delivered: the mailbox is full.",
    "",
    "Final-Recipient: rfc822; anna.keller@kestrel.example",
    "Status: 5.2.2",
    "--report",
    "Content-Type: message/rfc822",
    "",
    "From: Exec <exec@example.com>",
    "To: Anna Keller <anna.keller@kestrel.example>",
    "Subject: Kestrel term sheet",
    "",
    "Please find the term sheet attached.",
    "--report--",
    "",
  ].join("\r\n");
}

/** A plain mail whose first bytes are a UTF-8 byte-order mark, before its From header. */
export function byteOrderMarkMessage(fields: { date: Date; messageId: string; body: string }): string {
  return `\uFEFF${[...header({ from: "Lena Ortiz <lena@kestrel.example>", subject: "Board pack", ...fields, type: "text/plain; charset=utf-8" }), "", fields.body, ""].join("\r\n")}`;
}
