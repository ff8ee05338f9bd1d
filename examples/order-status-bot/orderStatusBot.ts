import type { BotConversation, TextBot } from '@ringflow/runtime';

/** An order of the demo shop. */
export interface Order {
  readonly id: string;
  readonly status: string;
}

/** The demo shop's orders, by the customer's phone number. */
export const DEMO_ORDERS: Readonly<Record<string, readonly Order[]>> = {
  '5551234': [{ id: '1234', status: 'shipped yesterday and arrives tomorrow' }],
  '5552000': [{ id: '2001', status: 'being packed and ships today' }],
};

const ASKS_FOR_ORDER = /\b(where|status|track|when)\b.*\border\b|\border\b.*\b(where|status|arriv|come)/i;
const ASKS_FOR_PERSON = /\b(person|human|agent|someone|somebody|operator|representative)\b/i;
const SAYS_GOODBYE = /\b(bye|goodbye|that's all|thank you|thanks)\b/i;

/**
 * A rule-based order-status bot (no language model): it answers "where is my order" from the
 * shop's orders of the caller (it asks the flow for the caller's number with the tool
 * `callerNumber`), puts the caller through to a person when asked or when it did not understand
 * twice (`end` handoff), and says goodbye when the caller does (`end` done). Keys work too (a
 * caller who cannot be understood): 1 asks for the order, # for a person. It speaks the text
 * relay protocol of docs/agents.md; `serve.ts` serves it over WebSocket.
 *
 * @example const scenario = await testFlow('flows/order-status.yaml', { bot: orderStatusBot() });
 */
export function orderStatusBot(orders: Readonly<Record<string, readonly Order[]>> = DEMO_ORDERS): TextBot {
  return (conversation: BotConversation) => {
    let misunderstood = 0;
    let tools = 0;
    const waiting = new Map<string, (result: unknown) => void>();
    const say = (text: string) => conversation.send({ type: 'say', text });
    const callerNumber = () =>
      new Promise<string>((resolve) => {
        const id = `number-${++tools}`;
        waiting.set(id, (result) => resolve(typeof result === 'string' ? result : ''));
        conversation.send({ type: 'tool', id, name: 'callerNumber' });
      });
    const answerOrder = async () => {
      const mine = orders[await callerNumber()] ?? [];
      if (mine.length === 0) {
        say('I could not find an order for your number. Let me put you through to a colleague.');
        conversation.send({ type: 'end', result: 'handoff', data: { reason: 'noOrder' } });
        return;
      }
      for (const order of mine) say(`Your order ${order.id} ${order.status}.`);
      say('Can I help with anything else?');
    };
    conversation.onMessage((message) => {
      switch (message.type) {
        case 'setup':
          say('Hello, you are through to the order line. How can I help?');
          return;
        case 'caller': {
          if (!message.final) return;
          const text = message.text;
          if (ASKS_FOR_PERSON.test(text)) {
            say('Let me put you through to a colleague.');
            conversation.send({ type: 'end', result: 'handoff', data: { reason: 'asked' } });
          } else if (ASKS_FOR_ORDER.test(text)) {
            misunderstood = 0;
            void answerOrder();
          } else if (SAYS_GOODBYE.test(text)) {
            say('Thank you for calling. Goodbye.');
            conversation.send({ type: 'end', result: 'done' });
          } else if (++misunderstood >= 2) {
            say('Sorry, I did not understand. Let me put you through to a colleague.');
            conversation.send({ type: 'end', result: 'handoff', data: { reason: 'notUnderstood' } });
          } else say('Sorry, I can tell you where your order is, or put you through to a person.');
          return;
        }
        case 'toolResult':
          waiting.get(message.id)?.(message.result);
          waiting.delete(message.id);
          return;
        case 'key':
          if (message.digit === '1') void answerOrder();
          if (message.digit === '#') {
            say('Let me put you through to a colleague.');
            conversation.send({ type: 'end', result: 'handoff', data: { reason: 'asked' } });
          }
          return;
        default:
      }
    });
  };
}
