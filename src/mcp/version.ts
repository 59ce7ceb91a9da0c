// The version the MCP handshake reports: the package's own, so a host's logs say which build answered.
import { PROJECT_VERSION } from '../project-root.js';

export const MCP_SERVER_VERSION = PROJECT_VERSION;
