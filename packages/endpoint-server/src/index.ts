/**
 * endpoint-server: a configuration-driven JSON endpoint server, compatible with HMTAPI 1.2.0's `config.yml`.
 * The core (paths, templates, config, HTTP server) runs behind a small {@link Host} interface; the sidecar host
 * reads a Minecraft server folder and resolves external placeholders through ServerTap.
 * @packageDocumentation
 */

export {
  CONFIG_DEFAULTS,
  type ConfigLoadResult,
  type EndpointConfig,
  type EndpointDefinition,
  loadConfigFile,
  type ParseConfigOptions,
  parseConfig,
  type ServerTapSettings,
  validateConfig,
} from './config.ts';
export {
  createDateFormatter,
  type DateFormatter,
  DatePatternError,
  DEFAULT_DATE_FORMAT,
  isValidTimeZone,
} from './date-format.ts';
export {
  type CancellableTask,
  createMemoryHost,
  type Host,
  type MemoryHostData,
  type PlayerRecord,
  runWithTimeout,
  startWithTimeout,
  TaskAbortedError,
  TaskTimeoutError,
} from './host.ts';
export { offlinePlayerUuid } from './hosts/sidecar/offline-uuid.ts';
export { type PlayerFileTimes, parsePlayerFile } from './hosts/sidecar/player-data.ts';
export { parseProperties } from './hosts/sidecar/server-properties.ts';
export {
  createSidecarHost,
  readLevelName,
  type SidecarHost,
  type SidecarHostOptions,
} from './hosts/sidecar/sidecar-host.ts';
export {
  lastLoginFromExpiresOn,
  parseUsercache,
  type Usercache,
  type UsercacheEntry,
} from './hosts/sidecar/usercache.ts';
export { createConsoleLogger, type Logger, silentLogger } from './logger.ts';
export { AVAILABLE_ROUTES, messages } from './messages.ts';
export { isValidEndpointName, isValidUsername, type ParsedPath, parsePath, rawPathOf } from './paths.ts';
export {
  createServerTapProvider,
  type PlaceholderProvider,
  ServerTapError,
  type ServerTapOptions,
} from './providers/servertap.ts';
export { ConfigLoadError, type ManagedHost, type Runtime, type RuntimeOptions, startRuntime } from './runtime.ts';
export {
  createEndpointServer,
  type EndpointServer,
  type EndpointServerOptions,
  type EndpointSnapshot,
} from './server.ts';
export {
  type CompiledObject,
  type CompiledTemplate,
  compileObject,
  compileTemplate,
  normalizeExternalName,
  type ObjectEntry,
  renderObject,
  renderTemplate,
  type TemplatePart,
  type TemplateValues,
} from './template.ts';
export { javaDoubleToString, yamlValueToText } from './values.ts';
export { parseYaml11, YamlSyntaxError } from './yaml.ts';
