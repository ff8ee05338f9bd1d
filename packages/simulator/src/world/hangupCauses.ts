/** Q.850 cause codes of the `reason` values of `DELETE /channels/{id}`. */
export const hangupReasonCauses: Readonly<Record<string, number>> = {
  normal: 16,
  busy: 17,
  congestion: 34,
  no_answer: 19,
  timeout: 18,
  rejected: 21,
  unallocated: 1,
  normal_unspecified: 31,
  number_incomplete: 28,
  codec_mismatch: 58,
  interworking: 127,
  failure: 38,
  answered_elsewhere: 26,
};

const causeTexts: Readonly<Record<number, string>> = {
  0: 'Unknown',
  1: 'Unallocated (unassigned) number',
  2: 'No route to specified transmit network',
  3: 'No route to destination',
  16: 'Normal Clearing',
  17: 'User busy',
  18: 'No user responding',
  19: 'User alerting, no answer',
  21: 'Call Rejected',
  22: 'Number changed',
  26: 'Answered elsewhere',
  27: 'Destination out of order',
  28: 'Invalid number format (addr incomplete)',
  29: 'Facility rejected',
  31: 'Normal, unspecified',
  34: 'Circuit/channel congestion',
  38: 'Network out of order',
  41: 'Temporary failure',
  42: 'Switching equipment congestion',
  58: 'Bearer capability not available',
  88: 'Incompatible destination',
  102: 'Recover on timer expiry',
  127: 'Interworking, unspecified',
};

/** The server's text of a cause code (`cause_txt` of ChannelDestroyed). */
export function causeText(cause: number): string {
  return causeTexts[cause] ?? 'Unknown';
}
