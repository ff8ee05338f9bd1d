export { Campaign } from './Campaign.ts';
export type { CampaignDialler, CampaignOptions, CampaignPace, CampaignSummary } from './Campaign.ts';
export {
  type CallWindow,
  isOpen,
  isTimeZone,
  minutesOfDay,
  nextOpening,
  WEEKDAYS,
  type Weekday,
} from './CallWindow.ts';
export {
  type CampaignJournal,
  FileCampaignJournal,
  type JournalEntry,
  MemoryCampaignJournal,
} from './CampaignJournal.ts';
export { type CampaignMetrics, campaignMetrics } from './CampaignMetrics.ts';
export type { Contact, ContactOutcome } from './Contact.ts';
export { contactOutcome } from './contactOutcome.ts';
export { type RetryRule, type RetryRules, retryDelay } from './RetryRules.ts';
