#!/usr/bin/env escript
%% erl-outline.escript FILE...: the module, records, types, macros and
%% functions OTP's epp_dodger reads in each file (without preprocessing it,
%% so macros and includes stay as written), one per line:
%% FILE<TAB>LINE<TAB>KIND<TAB>NAME<TAB>MODULE, KIND being module, struct
%% (a record), type, macro or function (named name/arity, all its clauses
%% one function), MODULE the module the file declared before it ("" before
%% -module). Read by outline/erlang_diff_test.go (scripts/erlang-diff).
-mode(compile).

main(Files) ->
    lists:foreach(fun file/1, Files).

file(F) ->
    case epp_dodger:parse_file(F, [{no_fail, true}]) of
        {ok, Forms} -> forms(F, Forms, "");
        {error, R} -> io:format(standard_error, "~s: ~p~n", [F, R])
    end.

forms(_, [], _) -> ok;
forms(F, [Form | Rest], Mod) ->
    Mod1 = try form(F, Form, Mod) catch _:_ -> Mod end,
    forms(F, Rest, Mod1).

form(F, Form, Mod) ->
    case erl_syntax:type(Form) of
        function ->
            N = erl_syntax:function_name(Form),
            case erl_syntax:type(N) of
                atom ->
                    Name = erl_syntax:atom_literal(N) ++ "/" ++ integer_to_list(erl_syntax:function_arity(Form)),
                    out(F, N, "function", Name, Mod);
                _ -> ok
            end,
            Mod;
        attribute ->
            attribute(F, Form, Mod);
        _ -> Mod
    end.

attribute(F, Form, Mod) ->
    A = erl_syntax:attribute_name(Form),
    Args = case erl_syntax:attribute_arguments(Form) of none -> []; L -> L end,
    case {erl_syntax:type(A), Args} of
        {atom, [M | _]} ->
            case {erl_syntax:atom_value(A), erl_syntax:type(M)} of
                {module, atom} ->
                    Name = erl_syntax:atom_literal(M),
                    out(F, M, "module", Name, ""),
                    Name;
                {record, atom} ->
                    out(F, M, "struct", erl_syntax:atom_literal(M), Mod), Mod;
                {define, _} ->
                    macro(F, M, Mod), Mod;
                {T, _} when T =:= type; T =:= opaque; T =:= nominal ->
                    type(F, Form, Mod), Mod;
                _ -> Mod
            end;
        _ -> Mod
    end.

macro(F, M, Mod) ->
    N = case erl_syntax:type(M) of
            application -> erl_syntax:application_operator(M);
            _ -> M
        end,
    case erl_syntax:type(N) of
        variable -> out(F, N, "macro", erl_syntax:variable_literal(N), Mod);
        atom -> out(F, N, "macro", erl_syntax:atom_literal(N), Mod);
        _ -> ok
    end.

type(F, Form, Mod) ->
    case erl_syntax:revert(Form) of
        {attribute, Anno, _, {Name, _, _}} when is_atom(Name) ->
            io:format("~s\t~p\ttype\t~ts\t~s~n", [F, erl_anno:line(Anno), io_lib:write_atom(Name), Mod]);
        _ -> ok
    end.

out(F, Node, Kind, Name, Mod) ->
    io:format("~s\t~p\t~s\t~ts\t~s~n", [F, line(Node), Kind, Name, Mod]).

line(Node) ->
    case erl_syntax:get_pos(Node) of
        {L, _} when is_integer(L) -> L;
        L when is_integer(L) -> L;
        Anno -> erl_anno:line(Anno)
    end.
