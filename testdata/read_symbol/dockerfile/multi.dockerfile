FROM --platform=$BUILDPLATFORM rust:1.79 AS chef
RUN cargo install cargo-chef

FROM chef AS planner
COPY . .
RUN cargo chef prepare

FROM chef AS builder
COPY --from=planner /recipe.json recipe.json
