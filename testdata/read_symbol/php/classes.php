<?php

declare(strict_types=1);

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

/**
 * A user.
 */
final class User extends Model implements Authenticatable
{
    public const TABLE = 'users';
    private const HIDDEN = ['password'], GUARDED = ['id'];

    public function __construct(private string $name)
    {
    }

    public static function find(int $id): ?static
    {
        return null;
    }

    protected function name(): string
    {
        return $this->name;
    }
}
