//! Reading `.sk` text into an AST; the only module that sees pest.

mod asm;
pub mod ast;
mod build;
mod class_names;
pub(crate) use build::{
    base_type, reference_of, reference_storage, top_level_args, DEEP_POINTER_HELP,
};
mod depth;
mod enums;
mod error;
mod goto;
mod grammar;
mod headers;
mod inherit;
mod overloads;
mod preprocess;
mod range_for;
mod scope;
mod switch;
mod vector_base;

use pest::Parser;

pub use depth::{
    addressed_names, any_expr_in, any_subexpr, assigned_names, calls_with_names, casts_of,
    method_calls_with_names, stmt_mentions, MAX_DEPTH,
};
pub use error::ParseError;
use grammar::{Rule, SkParser};
pub use overloads::{
    assigned_variable, canonical_kernel_name, fitting, param_type, sole_signature, split_instance,
    template_name,
};
pub(crate) use range_for::range_by_reference;
pub(crate) use scope::local_names;
pub use scope::resolve_kernel_name;

use crate::source::SourceFile;
use build::Builder;
use preprocess::SpanMap;

/// Bounds the time spent reading a file: pest's steps grow with its length, some 40 per byte of
/// ordinary code, so a file may take this many per byte (and at least [`MIN_CALLS`]) before the
/// parser gives up: linear time, whatever the input. The nesting is bounded by pest's stack guard
/// and [`MAX_DEPTH`].
pub const CALLS_PER_BYTE: usize = 400;

/// The parser's step limit for short text.
pub const MIN_CALLS: usize = 100_000_000;

/// Stack for parsing deep or long input: pest recurses once per nesting level and stops with an
/// error (never an overflow) when its stack runs low, so such input gets a large stack of its own,
/// the same on every thread. Only the pages actually used are touched.
const PARSE_STACK: usize = 256 << 20;

/// Text up to this long is parsed in place: a tree nests at most one level per byte, and dropping
/// a few thousand levels fits any thread's stack. Longer text may build a tree deep enough that
/// dropping it (when it is refused as too deep) needs the large stack.
const IN_PLACE: usize = 4096;

/// pest's step limit is one setting for the whole process, read when a parse starts: parses on
/// other threads (`simt test` checks files in parallel) must not change it between the setting
/// and the start, or a long file would be given a short file's limit.
static PEST: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Parses `text` as `rule` with the step limit for its length (see [`CALLS_PER_BYTE`]).
fn pest_parse(
    rule: Rule,
    text: &str,
) -> Result<pest::iterators::Pairs<'_, Rule>, pest::error::Error<Rule>> {
    let _only = PEST
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let limit = text.len().saturating_mul(CALLS_PER_BYTE).max(MIN_CALLS);
    pest::set_call_limit(std::num::NonZeroUsize::new(limit));
    SkParser::parse(rule, text)
}

/// Runs `f` in place for short text, or on a large stack (as pest does when in-place parsing of
/// short but deeply nested text runs out of stack).
fn with_stack<T>(
    text: &str,
    f: impl Fn() -> Result<T, Vec<ParseError>>,
) -> Result<T, Vec<ParseError>> {
    if text.len() > IN_PLACE {
        return stacker::grow(PARSE_STACK, f);
    }
    match f() {
        Err(es) if matches!(es.as_slice(), [ParseError::TooDeep { .. }]) => {
            stacker::grow(PARSE_STACK, f)
        }
        other => other,
    }
}

/// The compute capability a file is read for when no GPU is named: the default GPU's (H100 SXM,
/// sm_90), so `__CUDA_ARCH__` is 900.
pub const DEFAULT_COMPUTE_CAPABILITY: (u32, u32) = (9, 0);

/// Parses a whole `.sk` file as device code for the default GPU (see [`parse_for`]).
pub fn parse(src: &SourceFile) -> Result<ast::Module, Vec<ParseError>> {
    parse_for(src, DEFAULT_COMPUTE_CAPABILITY)
}

/// Parses a whole `.sk` file as nvcc compiles device code for a GPU of compute capability `cc`
/// (`__CUDA_ARCH__` is 800 for `(8, 0)`): preprocesses it, then reads the result with every span
/// mapped back into the file.
pub fn parse_for(src: &SourceFile, cc: (u32, u32)) -> Result<ast::Module, Vec<ParseError>> {
    parse_with(src, cc, &[])
}

/// [`parse_for`] with the command line's `-D NAME=VALUE` macros defined before the first line.
pub fn parse_with(
    src: &SourceFile,
    cc: (u32, u32),
    defines: &[(String, String)],
) -> Result<ast::Module, Vec<ParseError>> {
    // `__FILE__`: the file's name as it was given, as nvcc's is.
    let file: String = src
        .name()
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    let mut defines = defines.to_vec();
    defines.insert(0, ("__FILE__".into(), format!("\"{file}\"")));
    let dir = std::path::Path::new(src.name()).parent();
    let expanded = preprocess::preprocess_in(src.text(), dir, preprocess::cuda_arch(cc), &defines)?;
    let (text, map) = (expanded.text.as_str(), &expanded.map);
    with_stack(text, || {
        let mut pairs = pest_parse(Rule::file, text).map_err(|e| vec![convert(e, text, map)])?;
        let file = pairs.next().expect("grammar: file rule matched");
        let mut module = Builder::new(map).file(file)?;
        module.missing_headers = expanded.missing.clone();
        overloads::name_kernel_overloads(&mut module);
        match depth::too_deep_module(&module) {
            Some(span) => Err(vec![ParseError::TooDeep { span }]),
            None => Ok(module),
        }
    })
}

/// The length of the name `text` starts with, qualified (`a::b::c`) or not.
pub(crate) fn qualified_len(text: &str) -> usize {
    let word = |t: &str| {
        t.find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(t.len())
    };
    let mut len = word(text);
    while let Some(after) = text[len..].strip_prefix("::") {
        let next = word(after);
        if next == 0 {
            break;
        }
        len += 2 + next;
    }
    len
}

/// Parses a kernel name given on the command line, perhaps an instance of a template
/// (`--kernel 'sgemm<64, 64, 8>'`): its canonical name, the template's name and the arguments.
pub fn parse_kernel_ref(text: &str) -> Result<(String, String, Vec<ast::TemplateArg>), ParseError> {
    let map = &SpanMap::identity(text.len());
    let mut pairs = pest_parse(Rule::kernel_ref, text).map_err(|e| convert(e, text, map))?;
    let mut it = pairs
        .next()
        .expect("grammar: kernel_ref matched")
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI);
    let b = Builder::new(map);
    let base = it
        .next()
        .expect("grammar: a kernel name")
        .as_str()
        .to_string();
    match it.next() {
        Some(args) => {
            let name = build::instance_name(&base, args.as_str());
            let targs = b.template_args(args)?;
            Ok((name, base, targs))
        }
        None => Ok((base.clone(), base, Vec::new())),
    }
}

/// Whether `name` names a launch-section variable as the launch section writes it (`n`,
/// `p.alpha`, `p.tex[0]`), for `--arg NAME=VALUE`.
pub fn is_host_name(name: &str) -> bool {
    pest_parse(Rule::arg_name, name).is_ok()
}

/// Parses a host-section style expression given on the command line (`--arg a=rand(16)`).
pub fn parse_value(text: &str) -> Result<ast::Expr, ParseError> {
    let map = &SpanMap::identity(text.len());
    with_stack(text, || {
        let mut pairs =
            pest_parse(Rule::arg_value, text).map_err(|e| vec![convert(e, text, map)])?;
        let value = pairs.next().expect("grammar: arg_value matched");
        let expr = value
            .into_inner()
            .next()
            .expect("grammar: arg_value has an expr");
        let expr = Builder::new(map).expr(expr).map_err(|e| vec![e])?;
        match depth::too_deep_expr(&expr) {
            Some(span) => Err(vec![ParseError::TooDeep { span }]),
            None => Ok(expr),
        }
    })
    .map_err(|mut es| es.remove(0))
}

/// Converts a pest error into ours: a span in the whole file (through the preprocessor's map) and
/// friendly names of what was expected.
fn convert(err: pest::error::Error<Rule>, text: &str, map: &SpanMap) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let found = describe_found(text, pos);
    let end = (pos + found.1).min(text.len()).max(pos);
    let span = map.span(pos, end);
    let expected = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(|r| friendly(*r)).collect();
            names.sort_unstable();
            names.dedup();
            match names.len() {
                0 => "something else".to_string(),
                1 => names[0].to_string(),
                _ => {
                    let last = names.pop().expect("two or more names");
                    format!("{} or {}", names.join(", "), last)
                }
            }
        }
        ErrorVariant::CustomError { message } => {
            // pest's budgets: too little stack left for the nesting, or too many rule calls.
            if message.contains("stack limit") {
                return ParseError::TooDeep { span };
            }
            if message.contains("call limit") {
                return ParseError::TooLarge { span };
            }
            message.clone()
        }
    };
    // A statement whose `;` was forgotten: reading stops at the start of the next line, after a
    // line that ends in a name, a literal or a closing bracket.
    let line_start = text[..pos].rfind('\n').map_or(0, |n| n + 1);
    let before = text[..line_start].trim_end();
    let last_line = before.rsplit('\n').next().unwrap_or("");
    if text[line_start..pos].trim().is_empty()
        && found.0 != "end of file"
        && !last_line.contains("//")
        && !before.is_empty()
        && before
            .ends_with(|c: char| c.is_alphanumeric() || matches!(c, '_' | ')' | ']' | '\'' | '"'))
    {
        let last = before.len();
        let prev = before.chars().last().map_or(1, char::len_utf8);
        return ParseError::MissingSemicolon {
            span: map.span(last - prev, last),
            next: span,
        };
    }
    // `if (i = n)`: an assignment where a condition's comparison was meant.
    if found.0 == "found `=`" {
        let line = &text[line_start..pos];
        if line.contains("if (") || line.contains("if(") || line.contains("while") {
            return ParseError::Syntax {
                expected,
                span,
                found: found.0,
                macro_body: map.definition(text, pos),
                help: Some("did you mean `==`? `=` assigns; a condition compares".into()),
            };
        }
    }
    let help = if found.0 == "found `decltype`" {
        Some("simt reads `decltype(...)` as a trailing return type (`auto f(T a) -> decltype(a + 1)`) and as a local's type (`decltype(a + b) c = a + b;`); write the type here".to_string())
    } else if expected.contains("`;`") {
        Some("statements end with `;`; check the end of the previous line".to_string())
    } else if found.0 == "end of file" {
        Some("a `{`, `(` or `[` may not be closed".to_string())
    } else {
        None
    };
    ParseError::Syntax {
        expected,
        span,
        found: found.0,
        macro_body: map.definition(text, pos),
        help,
    }
}

/// What stands at `pos`: a word, a symbol or the end of the input, and its length.
fn describe_found(text: &str, pos: usize) -> (String, usize) {
    let rest = text.get(pos..).unwrap_or("");
    let Some(c) = rest.chars().next() else {
        return ("end of file".into(), 0);
    };
    if c.is_alphanumeric() || c == '_' {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let len = word.len();
        (format!("found `{word}`"), len)
    } else if c.is_whitespace() {
        ("found whitespace".into(), c.len_utf8())
    } else {
        (format!("found `{c}`"), c.len_utf8())
    }
}

/// The name of a grammar rule as a user would say it. Exhaustive on purpose: a new rule must be named here.
fn friendly(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::WHITESPACE
        | Rule::COMMENT
        | Rule::hspace
        | Rule::WS1
        | Rule::ident_char
        | Rule::gnu_attribute
        | Rule::cxx_attribute
        | Rule::decl_attribute
        | Rule::paren_text
        | Rule::typedef_names
        | Rule::paren_item
        | Rule::cond
        | Rule::kernel_head
        | Rule::device_head
        | Rule::call_arg
        | Rule::arg_assign
        | Rule::arg_eq
        | Rule::keyword
        // `new`, `delete` and `T**` are never what a syntax error asks for.
        | Rule::delete_stmt
        | Rule::delete_array
        | Rule::kw_delete
        | Rule::new_expr
        | Rule::new_count
        | Rule::new_place
        | Rule::kw_new
        | Rule::pointer_to_pointer
        | Rule::aten_ns => return None,
        Rule::item => "a kernel, `#define` or `launch` section",
        Rule::stmt | Rule::simple | Rule::comma_stmt => "a statement",
        Rule::enum_def | Rule::enum_scoped | Rule::kw_enum => "`enum`",
        Rule::enumerator => "an enumerator",
        Rule::enum_typedef_name => "the enum's type name",
        Rule::asm_stmt
        | Rule::kw_asm
        | Rule::asm_parts
        | Rule::asm_template
        | Rule::asm_operands
        | Rule::asm_operand
        | Rule::asm_clobbers
        | Rule::asm_text => "`asm(...)`",
        Rule::static_assert | Rule::kw_static_assert => "`static_assert(...)`",
        Rule::numeric_limits | Rule::unqualified_limits => "`std::numeric_limits<T>::...`",
        Rule::is_same => "`std::is_same<A, B>::value`",
        Rule::trait_name | Rule::trait_args => "a type predicate such as `is_same`",
        Rule::var_template | Rule::inline_kw => "a variable template",
        Rule::var_instance => "a variable template's instance",
        Rule::class_member => "`S<T>::member`",
        Rule::base_clause | Rule::access_kw => "a base class",
        Rule::integral_base => "`std::integral_constant<T, v>`",
        Rule::bool_base | Rule::true_type | Rule::false_type => "`std::true_type`",
        Rule::member_alias => "a member type alias",
        Rule::linkage_block => "`extern \"C\" { ... }`",
        Rule::member_template | Rule::member_template_header => "a member function template",
        Rule::structured_binding => "a structured binding",
        Rule::kernel_enable_if => "a kernel's `std::enable_if_t<...>` return type",
        Rule::friend_fn | Rule::friend_host | Rule::friend_decl | Rule::kw_friend => {
            "a `friend` declaration"
        }
        Rule::named_param => "a parameter",
        Rule::lambda | Rule::capture | Rule::lambda_spec | Rule::lambda_space => "a lambda",
        Rule::trailing_ret => "a trailing return type `-> T`",
        Rule::decltype_ty | Rule::kw_decltype => "`decltype(...)`",
        Rule::host_stmt => "`name = value;` or `expect`",
        Rule::bin_op => "an operator",
        Rule::prefix_op | Rule::primary => "an expression",
        Rule::postfix => "`[`, `.` or `(`",
        Rule::file | Rule::stray_semicolon => "a kernel, `#define` or `launch` section",
        Rule::directive | Rule::pragma | Rule::pragma_stmt | Rule::pragma_then => "a `#` directive",
        Rule::pragma_op | Rule::kw_pragma_op => "`_Pragma(\"...\")`",
        Rule::arg_value => "an expression",
        Rule::arg_name => "a name",
        Rule::kernel => "`__global__`",
        Rule::launch_bounds => "`__launch_bounds__`",
        Rule::device_fn => "`__device__`",
        Rule::global_const => "a constant declaration",
        Rule::host_array | Rule::host_array_name => "a host array",
        Rule::constant_decl => "`__constant__`",
        Rule::params | Rule::param => "a parameter",
        Rule::ty | Rule::qualifier | Rule::scalar_ty => "a type such as `float`",
        Rule::pointer => "`*`",
        Rule::reference => "`&`",
        Rule::ref_restrict => "`__restrict__`",
        Rule::restrict_word => "`__restrict__`",
        Rule::init_list => "`{`",
        Rule::functional_cast => "a cast such as `int(x)`",
        Rule::value_init => "`()`",
        Rule::brace_cast => "a braced cast such as `uint64_t{x}`",
        Rule::fn_qualifier | Rule::extern_c => "a function qualifier",
        Rule::global_kw => "`__global__`",
        Rule::fn_prototype | Rule::device_decl => "a function declaration",
        Rule::var_attribute => "`__attribute__`",
        Rule::template_item | Rule::kw_template => "`template`",
        Rule::template_param
        | Rule::type_param
        | Rule::value_param
        | Rule::fn_ptr_tparam
        | Rule::template_tparam
        | Rule::tt_param
        | Rule::kw_typename => "a template parameter",
        Rule::template_args
        | Rule::template_arg
        | Rule::type_arg
        | Rule::targ_expr
        | Rule::targ_fn_spec
        | Rule::fn_instance
        | Rule::template_instance
        | Rule::targ_op
        | Rule::type_targs
        | Rule::type_targ
        | Rule::type_fn_spec
        | Rule::targ_logic
        | Rule::targ_cond
        | Rule::targ_cmp
        | Rule::template_call => "template arguments `<...>`",
        Rule::scalar_cast_ty | Rule::named_ptr_ty | Rule::named_plain_ty | Rule::ref_cast_ty => {
            "a type such as `float`"
        }
        Rule::type_alias | Rule::fn_ptr_alias | Rule::kw_typedef | Rule::kw_using => {
            "a `typedef` or `using`"
        }
        Rule::fn_ptr_param => "a parameter",
        Rule::named_ty | Rule::scoped_name => "a name",
        Rule::namespace_block | Rule::namespace_decl | Rule::kw_namespace => "`namespace`",
        Rule::using_enum => "`using enum`",
        Rule::template_brace => "`{`",
        Rule::balanced => "`)`",
        Rule::const_declarator => "a constant's name",
        Rule::param_array => "`[]`",
        Rule::array_ref => "a reference to an array (`(&a)[4]`)",
        Rule::array_ptr => "a pointer to arrays (`(*p)[4]`)",
        Rule::designated | Rule::init_item => "a designated initialiser (`.x = 1`)",
        Rule::packed => "`__attribute__((packed))`",
        Rule::pointer_alias => "a pointer type's name (`*name`)",
        Rule::fn_ptr_decl => "a function pointer parameter (`(*f)(float)`)",
        Rule::host_fn | Rule::unmarked_fn | Rule::host_after_type | Rule::host_var | Rule::extern_decl | Rule::host_macro_block => "host code",
        Rule::space_word => "a memory space",
        Rule::host_body => "`}`",
        Rule::char_lit => "a character",
        Rule::dev_kw => "`__device__`",
        Rule::managed_kw => "`__managed__`",
        Rule::struct_def | Rule::kw_struct | Rule::local_struct | Rule::host_struct_var => "`struct`",
        Rule::access_label => "`public:`",
        Rule::conversion_op | Rule::kw_operator => "`operator`",
        Rule::member_fn | Rule::host_method | Rule::host_fn_word | Rule::field_decl | Rule::struct_member | Rule::member_decl => "a member",
        Rule::member_def | Rule::member_owner | Rule::static_member_def => "a member defined outside its class",
        Rule::kernel_owner => "the namespace of a kernel defined outside it",
        Rule::array_pointer => "a pointer or reference to an array, `(*p)[4]`",
        Rule::fn_decl_stmt => "a declaration",
        Rule::builtin_bit_cast => "`__builtin_bit_cast(T, x)`",
        Rule::shared_ty_first => "`__shared__`",
        Rule::brace_init | Rule::type_brace | Rule::brace_list => "`{`",
        Rule::ctor_args => "`(`",
        Rule::arrow => "`->`",
        Rule::fn_name | Rule::operator_name | Rule::overload_op | Rule::spaced_op => {
            "a function name"
        }
        Rule::ctor_def | Rule::host_ctor | Rule::member_init | Rule::explicit_kw | Rule::default_kw => {
            "a constructor"
        }
        Rule::special_member | Rule::special_param | Rule::rvalue_ref | Rule::delete_kw => {
            "a copy or move member"
        }
        Rule::noexcept_spec => "`noexcept`",
        Rule::file_shared => "`__shared__`",
        Rule::dtor_def => "a destructor",
        Rule::host_name => "a name",
        Rule::struct_fwd | Rule::nested_struct => "`struct`",
        Rule::union_def | Rule::kw_union => "`union`",
        Rule::bit_field => "a bit-field",
        Rule::constant_array | Rule::kw_constant => "`__constant__`",
        Rule::leading_const => "`const`",
        Rule::device_var => "a `__device__` variable",
        Rule::device_space => "`__device__`",
        Rule::texture_ref | Rule::texture_arg => "a texture reference",
        Rule::cuda_fn_word => "a function qualifier",
        Rule::sizeof_expr | Rule::kw_sizeof => "`sizeof`",
        Rule::alignof_expr | Rule::kw_alignof => "`alignof`",
        Rule::pack_dots | Rule::sizeof_pack => "`...`",
        Rule::switch_stmt | Rule::kw_switch => "`switch`",
        Rule::switch_arm | Rule::switch_label | Rule::kw_case => "`case`",
        Rule::kw_default => "`default`",
        Rule::align_spec => "`__align__(...)`",
        Rule::gnu_aligned => "`__attribute__((aligned))`",
        Rule::align_type => "a type",
        Rule::constant_name => "a constant's name",
        Rule::kernel_ref => "a kernel name",
        Rule::static_kw => "`static`",
        Rule::volatile_kw => "`volatile`",
        Rule::shared_star => "`*`",
        Rule::block => "`{`",
        Rule::empty_stmt => "`;`",
        Rule::if_stmt | Rule::kw_if => "`if`",
        Rule::if_decl => "a declaration as a condition",
        Rule::kw_constexpr => "`constexpr`",
        Rule::kw_else => "`else`",
        Rule::for_stmt | Rule::range_for_stmt | Rule::kw_for => "`for`",
        Rule::for_init | Rule::for_cond | Rule::for_step | Rule::simple_list => "a `for` clause",
        Rule::while_stmt | Rule::kw_while => "`while`",
        Rule::do_stmt | Rule::kw_do => "`do`",
        Rule::break_stmt | Rule::kw_break => "`break`",
        Rule::goto_stmt | Rule::kw_goto => "`goto`",
        Rule::device_launch_stmt => "a kernel launch `<<<...>>>`",
        Rule::explicit_instantiation => "an explicit instantiation",
        Rule::host_alias => "a type alias",
        Rule::member_enum => "an enum",
        Rule::label_stmt => "a label",
        Rule::host_prototype => "a function declaration",
        Rule::dtor_outside => "a destructor",
        Rule::host_ctor_outside | Rule::host_init => "a constructor",
        Rule::virtual_member | Rule::virtual_kw | Rule::device_virtual => {
            "a virtual member function"
        }
        Rule::pure_spec => "`= 0`",
        Rule::virt_specifier => "`override`",
        Rule::kw_noexcept => "`noexcept`",
        Rule::continue_stmt | Rule::kw_continue => "`continue`",
        Rule::return_stmt | Rule::kw_return => "`return`",
        Rule::shared_decl | Rule::shared_aggregate => "`__shared__`",
        Rule::extern_kw => "`extern`",
        Rule::array_dim => "`[`",
        Rule::var_decl | Rule::declarator => "a declaration",
        Rule::assign => "an assignment",
        Rule::assign_op => "`=`",
        Rule::compound_op => "an operator",
        Rule::pre_incdec | Rule::incdec | Rule::op_preinc | Rule::post_inc_in_expr => {
            "`++` or `--`"
        }
        Rule::expr | Rule::ternary | Rule::binary | Rule::unary | Rule::postfix_expr => {
            "an expression"
        }
        Rule::op_lor
        | Rule::op_land
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_le
        | Rule::op_ge
        | Rule::op_shl
        | Rule::op_shr
        | Rule::op_lt
        | Rule::op_gt
        | Rule::op_bor
        | Rule::op_bxor
        | Rule::op_band
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div
        | Rule::op_rem => "an operator",
        Rule::cast | Rule::cpp_cast | Rule::cast_array | Rule::array_cast | Rule::array_cast_ty | Rule::typename_name => "a cast",
        Rule::cast_ref => "`&`",
        Rule::cast_pp => "`*`",
        Rule::op_neg
        | Rule::op_not
        | Rule::op_bnot
        | Rule::op_plus
        | Rule::op_deref
        | Rule::op_addr => "an expression",
        Rule::index => "`[`",
        Rule::member | Rule::conversion_call => "`.`",
        Rule::call_args => "`(`",
        Rule::tuple_or_paren => "`(`",
        Rule::list_lit => "`[`",
        Rule::bool_lit | Rule::float_lit | Rule::exponent | Rule::int_lit | Rule::int_suffix => {
            "a number"
        }
        Rule::string_lit | Rule::strings => "a string",
        Rule::ident => "a name",
        Rule::kernel_name => "a kernel name",
        Rule::launch | Rule::kw_launch => "`launch`",
        Rule::sequence | Rule::kw_sequence => "`sequence`",
        Rule::launch_signature => "an overload's parameter types `(int, float*)`",
        Rule::host_assign => "`name = value;`",
        Rule::expect_stmt | Rule::kw_expect => "`expect`",
        Rule::cooperative_stmt => "`cooperative;`",
    })
}
