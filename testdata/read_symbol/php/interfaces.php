<?php

namespace App\Contracts;

interface Repository
{
    const PAGE_SIZE = 50;

    public function find(int $id): ?object;

    public function all(): array;
}

trait HasTimestamps
{
    public function touch(): void
    {
    }
}
