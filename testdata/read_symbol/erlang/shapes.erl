%% @doc An example module.
-module(shapes).
-behaviour(gen_server).

-export([area/1, area/2, start_link/0]).
-export_type([shape/0]).

-include_lib("kernel/include/file.hrl").

-define(PI, 3.14159).
-define(SQUARE(X), ((X) * (X))).

-record(circle, {radius = 1.0 :: float()}).
-record(rect, {w, h}).

-type shape() :: #circle{} | #rect{}.
-opaque handle() :: reference().

-spec area(shape()) -> float().
area(#circle{radius = R}) ->
    ?PI * ?SQUARE(R);
area(#rect{w = W, h = H}) ->
    W * H.

area(W, H) when is_number(W), is_number(H) ->
    Helper = fun(X) -> X * 2 end,
    Helper(W) * H.

start_link() ->
    gen_server:start_link({local, ?MODULE}, ?MODULE, [], []).

'quoted name'([A, B | _], {C, D}, <<E:8, _/binary>>) ->
    {A, B, C, D, E}.

-ifdef(TEST).
test_only() -> ok.
-endif.
