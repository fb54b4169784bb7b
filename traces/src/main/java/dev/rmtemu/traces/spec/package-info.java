/**
 * A trace named by one string (a pcap/pcapng file, a trace store, or a generator spec), opened as
 * a packet source; the one package that knows every reader, so the readers never know each other.
 */
package dev.rmtemu.traces.spec;
