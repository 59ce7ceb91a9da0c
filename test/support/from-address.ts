// One API request made from a chosen loopback source address (127.0.0.0/8 is all ours), so a test can play a second
// client machine; the answer is checked against openapi.yaml like ApiClient's.
import http from 'node:http';
import { assertMatchesContract, type ApiResponse } from './api-client.js';

export function requestFrom<T = unknown>(localAddress: string, url: string, method: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) };
  return new Promise((resolve, reject) => {
    const request = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers, localAddress }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const contentType = response.headers['content-type'] ?? '';
        try {
          assertMatchesContract(method, target.pathname, response.statusCode!, contentType, bytes);
        } catch (error) {
          reject(error);
          return;
        }
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
        }
        const json = contentType.startsWith('application/json') ? (JSON.parse(bytes.toString()) as T) : (undefined as T);
        resolve({ status: response.statusCode!, headers: answerHeaders, json, bytes });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}
