package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/** A declaration: at the top level, in a parser or control, or in an instance's initializer. */
public sealed interface Declaration extends Node {
    /** The name it declares (empty for error and match_kind blocks). */
    String name();

    record Constant(SourcePosition position, List<Annotation> annotations, TypeRef type, String name, Expression value)
            implements Declaration {
    }

    record Variable(SourcePosition position, List<Annotation> annotations, TypeRef type, String name, Expression initializer)
            implements Declaration {
    }

    /** {@code T(args) name;} or {@code T(args) name = { functions and instances };} (e.g. a RegisterAction's apply). */
    record Instantiation(SourcePosition position, List<Annotation> annotations, TypeRef type, List<Argument> arguments, String name,
            List<Declaration> initializer) implements Declaration {
        public Instantiation {
            arguments = List.copyOf(arguments);
            initializer = List.copyOf(initializer);
        }
    }

    record Action(SourcePosition position, List<Annotation> annotations, String name, List<Parameter> parameters,
            Statement.Block body) implements Declaration {
        public Action {
            parameters = List.copyOf(parameters);
        }
    }

    record Function(SourcePosition position, List<Annotation> annotations, TypeRef returnType, String name,
            List<Identifier> typeParameters, List<Parameter> parameters, Statement.Block body) implements Declaration {
    }

    /** A method of an extern; {@code returnType} null for a constructor. */
    record Method(SourcePosition position, List<Annotation> annotations, boolean isAbstract, TypeRef returnType, String name,
            List<Identifier> typeParameters, List<Parameter> parameters) implements Declaration {
    }

    record Extern(SourcePosition position, List<Annotation> annotations, String name, List<Identifier> typeParameters,
            List<Method> methods) implements Declaration {
    }

    /** {@code extern T f<T>(...);}. */
    record ExternFunction(SourcePosition position, List<Annotation> annotations, Method prototype) implements Declaration {
        @Override
        public String name() {
            return prototype.name();
        }
    }

    /** header, header_union or struct. */
    record StructLike(SourcePosition position, List<Annotation> annotations, Kind kind, String name, List<Identifier> typeParameters,
            List<Field> fields) implements Declaration {
        public enum Kind { HEADER, HEADER_UNION, STRUCT }
    }

    record Field(SourcePosition position, List<Annotation> annotations, TypeRef type, String name) implements Node {
    }

    /** {@code enum E { A, B }}, or serializable {@code enum bit<8> E { A = 1 }} ({@code underlying} not null). */
    record Enum(SourcePosition position, List<Annotation> annotations, TypeRef underlying, String name, List<EnumMember> members)
            implements Declaration {
    }

    record EnumMember(SourcePosition position, String name, Expression value) implements Node {
    }

    record ErrorMembers(SourcePosition position, List<Identifier> members) implements Declaration {
        @Override
        public String name() {
            return "";
        }
    }

    record MatchKinds(SourcePosition position, List<Identifier> members) implements Declaration {
        @Override
        public String name() {
            return "";
        }
    }

    /** {@code typedef} ({@code newType} false) or {@code type} (true), of a type or of a derived type declared in place. */
    record Typedef(SourcePosition position, List<Annotation> annotations, boolean newType, TypeRef type, Declaration declared,
            String name) implements Declaration {
    }

    /** A parser, control or package type: a signature without a body. */
    record BlockType(SourcePosition position, List<Annotation> annotations, BlockKind kind, String name, List<Identifier> typeParameters,
            List<Parameter> parameters) implements Declaration {
        public enum BlockKind { PARSER, CONTROL, PACKAGE }
    }

    record Parser(SourcePosition position, BlockType type, List<Parameter> constructorParameters, List<Declaration> locals,
            List<ParserState> states) implements Declaration {
        @Override
        public String name() {
            return type.name();
        }
    }

    record Control(SourcePosition position, BlockType type, List<Parameter> constructorParameters, List<Declaration> locals,
            Statement.Block apply) implements Declaration {
        @Override
        public String name() {
            return type.name();
        }
    }

    record ValueSet(SourcePosition position, List<Annotation> annotations, TypeRef type, Expression size, String name)
            implements Declaration {
    }

    record Table(SourcePosition position, List<Annotation> annotations, String name, List<TableProperty> properties)
            implements Declaration {
    }
}
