import type { ModelMessage, UserContent } from 'ai';
import type { ChatMessage, ContentPart } from '../prompt/types.js';

/** Rendered chat messages in the AI SDK's message shape. */
export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === 'user') {
      return { role: 'user', content: typeof message.content === 'string' ? message.content : userParts(message.content) };
    }
    // Attachments are only allowed in user messages, so other roles are plain text.
    return { role: message.role, content: plainText(message.content) };
  });
}

function userParts(parts: readonly ContentPart[]): Exclude<UserContent, string> {
  return parts.map((part) => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return part.mimeType === undefined
          ? { type: 'image', image: part.image }
          : { type: 'image', image: part.image, mediaType: part.mimeType };
      case 'file':
        return { type: 'file', data: part.data, mediaType: part.mimeType };
    }
  });
}

/** The text of a message: its string, or its text parts joined. */
export function plainText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
