// Picks the chat client for the configured provider.
import type { ChatClient } from './chat.js';
import type { LlmConfig } from '../core/llm-config.js';
import { AnthropicChatClient } from './anthropic.js';
import { OllamaChatClient } from './ollama.js';
import { OpenAIChatClient } from './openai-compatible.js';
import type { TransportOptions } from './transport.js';

export function createChatClient(config: LlmConfig, options: TransportOptions = {}): ChatClient {
  switch (config.provider) {
    case 'openai':
      return new OpenAIChatClient(config, options);
    case 'anthropic':
      return new AnthropicChatClient(config, options);
    case 'ollama':
      return new OllamaChatClient(config, options);
  }
}
