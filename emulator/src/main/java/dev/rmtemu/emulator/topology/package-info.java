/**
 * Network topology: the static part the event-driven network engine runs on.
 *
 * <ul>
 *   <li>{@link dev.rmtemu.emulator.topology.Topology}: immutable, validated nodes
 *       (programmable switches, regular switches, hosts) and links (latency, rate,
 *       per-direction impairment specs kept as ordered opaque strings).</li>
 *   <li>{@link dev.rmtemu.emulator.topology.TopologySpec#parse}: a JSON/YAML file
 *       ({@link dev.rmtemu.emulator.topology.TopologyFile}) or a built-in
 *       ({@link dev.rmtemu.emulator.topology.BuiltinTopologies}: single, line,
 *       chain, fattree, abilene).</li>
 *   <li>{@link dev.rmtemu.emulator.topology.Routing}: hop-count shortest paths to
 *       every host prefix, ECMP groups in ascending port order, allocation-free
 *       LPM + ECMP lookups per packet, and the exact hops of a flow.</li>
 *   <li>{@link dev.rmtemu.emulator.topology.VConns}: WBMon vconns and
 *       neighbourhoods.</li>
 * </ul>
 * No time, no queues, no packets here.
 */
package dev.rmtemu.emulator.topology;
