// rmtemu's declaration of the P4_16 core library (specification v1.2.x, "P4 core library").
// Written for rmtemu from the specification; #include <core.p4> resolves here.
#ifndef RMTEMU_CORE_P4
#define RMTEMU_CORE_P4

// The errors every target knows; architectures add their own in a further error block.
error {
    NoError,               // no error
    PacketTooShort,        // extract ran past the end of the packet
    NoMatch,               // no select case matched
    StackOutOfBounds,      // a header-stack index past its size
    HeaderTooShort,        // a varbit extract longer than its field
    ParserTimeout,         // the parser ran too long
    ParserInvalidArgument  // a parser operation got an argument it cannot use
}

// The packet as the parser reads it.
extern packet_in {
    // Copy the next bits into a fixed-size header and make it valid.
    void extract<T>(out T hdr);
    // Copy the next bits into a header whose last field is varbit, that field getting the given size.
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    // The next bits as a T, without moving past them.
    T lookahead<T>();
    // Move past the given number of bits.
    void advance(in bit<32> sizeInBits);
    // The packet's length in bytes (not every target knows it).
    bit<32> length();
}

// The packet as the deparser writes it.
extern packet_out {
    // Append a header if it is valid (a struct or stack: each of its headers, in order).
    void emit<T>(in T hdr);
}

// In a parser: when check is false, stop with error toSignal.
extern void verify(in bool check, in error toSignal);

// Compile-time assertions.
extern bool static_assert(bool check, string message);
extern bool static_assert(bool check);

// The action that does nothing: the usual default of a table.
@noWarn("unused")
action NoAction() {}

// The match kinds of the core library.
match_kind {
    exact,    // the key equals the entry's value
    ternary,  // the key equals the value where the entry's mask has ones
    lpm       // the longest matching prefix wins
}

#endif
