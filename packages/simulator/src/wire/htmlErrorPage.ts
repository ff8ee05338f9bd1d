/**
 * The small HTML page an ARI server's HTTP layer sends for errors outside the REST interface
 * (unknown URL, upgrade required, WebSocket handshake without `app`), byte for byte in the
 * traced layout so that clients which show or match it behave the same.
 *
 * @example
 * htmlErrorPage(404, 'Not Found', 'The requested URL was not found on this server.', 'ringflow-simulator');
 */
export function htmlErrorPage(status: number, title: string, text: string, serverName: string): string {
  return (
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\r\n' +
    '<html><head>\r\n' +
    `<title>${status} ${escapeHtml(title)}</title>\r\n` +
    '</head><body>\r\n' +
    `<h1>${escapeHtml(title)}</h1>\r\n` +
    `<p>${escapeHtml(text)}</p>\r\n` +
    '<hr />\r\n' +
    `<address>${escapeHtml(serverName)}</address>\r\n` +
    '</body></html>\r\n'
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
